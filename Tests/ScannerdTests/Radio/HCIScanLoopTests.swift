import Foundation
import ScanContract
import Testing
@testable import scannerd

@Suite("BLE source over HCI", .timeLimit(.minutes(1)))
struct HCIScanLoopTests {
    let legacyParameters: UInt16 = 0x200B, legacyEnable: UInt16 = 0x200C
    let extendedParameters: UInt16 = 0x2041, extendedEnable: UInt16 = 0x2042

    /// Runs a loop over the controllers `open` hands out, on this thread, until a script runs out.
    func run(
        settings: HCIScanSettings = HCIScanSettings(), events: EventLog? = nil, stop: StopSignal, gatherWindow: Duration? = nil,
        onDelivery: (HeardAdvertisement) -> Void = { _ in }, open: @escaping @Sendable (String) throws -> any HCIChannel
    ) throws -> (heard: [HeardAdvertisement], counts: RadioCounters.Snapshot) {
        let counters = RadioCounters()
        var loop = HCIScanLoop(
            device: "hci0", settings: settings, open: open, counters: counters,
            events: events ?? .disabled(logger: quietLogger), logger: quietLogger
        )
        loop.retryInitial = .milliseconds(1)
        loop.retryMaximum = .milliseconds(5)
        loop.healthCheckAfter = .zero
        loop.commandTimeout = .milliseconds(50)
        if let gatherWindow { loop.gatherWindow = gatherWindow }
        var heard: [HeardAdvertisement] = []
        try loop.run(stop: stop) { group in
            for advertisement in group {
                onDelivery(advertisement)
                heard.append(advertisement)
            }
        }
        return (heard, counters.snapshot)
    }

    @Test func aLegacyControllerIsArmedWithTheLegacyCommandsAndDisarmedAtTheEnd() throws {
        let stop = StopSignal()
        let controller = ScriptedController(supportedCommands: ScriptedController.bitmap(), script: [.packet(iBeaconReport())], stop: stop)
        let settings = HCIScanSettings(scanType: .active, intervalMilliseconds: 200, windowMilliseconds: 50)
        let result = try run(settings: settings, stop: stop) { _ in controller }
        #expect(controller.opcodes == [0x1002, legacyEnable, legacyParameters, legacyEnable, legacyEnable])
        #expect(controller.sent[2].parameters == [0x01, 0x40, 0x01, 0x50, 0x00, 0x00, 0x00], "active, 320 × 0.625 ms, 80 × 0.625 ms")
        #expect(controller.sent[3].parameters == [0x01, 0x00], "enabled with duplicate filtering off")
        #expect(controller.sent[4].parameters == [0x00, 0x00], "disabled on the way out")
        #expect(controller.closed)
        #expect(result.heard.count == 1 && result.counts.advertisements == 1)
    }

    /// After the first packet the loop reads all that wait, up to the quiet read after the third,
    /// before it hands on the first.
    @Test func packetsReadWithinTheGatherWindowAreHandedOnTogether() throws {
        let stop = StopSignal()
        let controller = ScriptedController(
            supportedCommands: ScriptedController.bitmap(), script: (1...3).map { .packet(iBeaconReport(minor: $0)) }, stop: stop
        )
        var readsAtDelivery: [Int] = []
        let result = try run(stop: stop, gatherWindow: .milliseconds(1), onDelivery: { _ in readsAtDelivery.append(controller.reads) }) { _ in
            controller
        }
        #expect(result.heard.compactMap { $0.readings.first?.observation }.count == 3)
        #expect(readsAtDelivery.count == 3 && Set(readsAtDelivery).count == 1)
        #expect(readsAtDelivery.first == controller.reads - 1, "handed on after the quiet read that ended the group")
    }

    /// A burst longer than a group comes in full groups, in order, none lost; after a full group
    /// the packets still waiting are read on at once, without waiting for more.
    @Test func aBurstBeyondTheGroupLimitComesInFullGroupsReadWithoutWaitingBetweenThem() throws {
        let stop = StopSignal()
        let count = 2 * HCIScanLoop.groupLimit + 1
        let controller = ScriptedController(
            supportedCommands: ScriptedController.bitmap(), script: (1...count).map { .packet(iBeaconReport(minor: UInt8($0))) }, stop: stop
        )
        var readsAtDelivery: [Int] = []
        let result = try run(stop: stop, gatherWindow: .milliseconds(1), onDelivery: { _ in readsAtDelivery.append(controller.reads) }) { _ in
            controller
        }
        let minors = result.heard.compactMap { heard -> UInt16? in
            guard case .ble(let observation)? = heard.readings.first?.observation else { return nil }
            return observation.beacon.minor
        }
        #expect(minors == (1...count).map { UInt16($0) })
        var groups: [(readsAtDelivery: Int, size: Int)] = []
        for reads in readsAtDelivery {
            if groups.last?.readsAtDelivery == reads { groups[groups.count - 1].size += 1 } else { groups.append((reads, 1)) }
        }
        #expect(groups.map(\.size) == [HCIScanLoop.groupLimit, HCIScanLoop.groupLimit, 1])
        let timeouts = controller.timeouts
        for full in groups.dropLast() {
            // The read after a full group's delivery (reads are counted from 1).
            #expect(timeouts[full.readsAtDelivery] == .zero, "the next packet is read without waiting")
        }
    }

    @Test func anExtendedControllerGetsOnlyTheExtendedCommandsUnlessLegacyIsAsked() throws {
        let stop = StopSignal()
        let controller = ScriptedController(supportedCommands: ScriptedController.bitmap(extended: true), script: [], stop: stop)
        _ = try run(stop: stop) { _ in controller }
        #expect(controller.opcodes == [0x1002, extendedEnable, extendedParameters, extendedEnable, extendedEnable])
        #expect(controller.sent[2].parameters == [0x00, 0x00, 0x01, 0x00, 0xA0, 0x00, 0xA0, 0x00], "1M PHY, passive, 100 ms / 100 ms")
        #expect(controller.sent[3].parameters == [0x01, 0x00, 0x00, 0x00, 0x00, 0x00])

        let legacyStop = StopSignal()
        let legacy = ScriptedController(supportedCommands: ScriptedController.bitmap(extended: true), script: [], stop: legacyStop)
        _ = try run(settings: HCIScanSettings(legacyOnly: true), stop: legacyStop) { _ in legacy }
        #expect(!legacy.opcodes.contains(extendedParameters) && !legacy.opcodes.contains(extendedEnable))
        #expect(legacy.opcodes.contains(legacyParameters))
    }

    @Test func aRefusedCommandIsATypedErrorNamingTheStatus() throws {
        let stop = StopSignal()
        let controller = ScriptedController(
            supportedCommands: ScriptedController.bitmap(), script: [], stop: stop, statuses: [legacyParameters: 0x12]
        )
        #expect(throws: HCIError.commandFailed(opcode: legacyParameters, status: 0x12)) {
            try run(stop: stop) { _ in controller }
        }
        #expect(HCIError.commandFailed(opcode: legacyParameters, status: 0x12).description.contains("Invalid HCI Command Parameters"))
        #expect(controller.closed, "the socket is closed when arming fails")
    }

    @Test func aCommandWithoutAnswerTimesOut() throws {
        let stop = StopSignal()
        let controller = ScriptedController(supportedCommands: ScriptedController.bitmap(), script: [], stop: stop, silent: [0x1002])
        #expect(throws: HCIError.commandTimedOut(opcode: 0x1002)) {
            try run(stop: stop) { _ in controller }
        }
    }

    @Test func aControllerWithoutLEScanningIsRefused() throws {
        let stop = StopSignal()
        let controller = ScriptedController(supportedCommands: ScriptedController.bitmap(legacy: false), script: [], stop: stop)
        #expect(throws: HCIError.leScanningUnsupported(device: "hci0")) {
            try run(stop: stop) { _ in controller }
        }
    }

    @Test func aMalformedReportIsCountedAndSkipped() throws {
        let stop = StopSignal()
        var cut = iBeaconReport()
        cut.removeLast(5)
        cut[2] -= 5 // a consistent event header, but the report runs past its end
        let controller = ScriptedController(
            supportedCommands: ScriptedController.bitmap(),
            script: [.packet(iBeaconReport(minor: 1)), .packet(cut), .packet([0x04, 0x3E, 0x09, 0x02]), .packet(iBeaconReport(minor: 2))],
            stop: stop
        )
        let result = try run(stop: stop) { _ in controller }
        #expect(result.counts.malformedReports == 2)
        #expect(result.heard.flatMap(\.readings).compactMap { reading -> UInt16? in
            guard case .ble(let observation) = reading.observation else { return nil }
            return observation.beacon.minor
        } == [1, 2])
    }

    @Test func aLostControllerIsReopenedAndReArmedWithoutEndingTheScan() throws {
        let directory = try TemporaryDirectory()
        let eventPath = directory.path + "/events.jsonl"
        let events = try EventLog(.file(eventPath), logger: quietLogger)
        let stop = StopSignal()
        let opened = LockedList<ScriptedController>()
        let openings = LockedList<Int>()
        let result = try run(events: events, stop: stop) { _ in
            openings.append(1)
            switch openings.items.count {
            case 1:
                let first = ScriptedController(
                    supportedCommands: ScriptedController.bitmap(), script: [.packet(iBeaconReport(minor: 1)), .error(ENETDOWN)], stop: stop
                )
                opened.append(first)
                return first
            case 2:
                throw HCIError.noSuchDevice("hci0") // not back yet
            default:
                let second = ScriptedController(
                    supportedCommands: ScriptedController.bitmap(), script: [.packet(iBeaconReport(minor: 2))], stop: stop
                )
                opened.append(second)
                return second
            }
        }
        #expect(openings.items.count == 3)
        #expect(result.heard.count == 2, "advertisements before and after the loss")
        #expect(result.counts.radioFailures == 1 && result.counts.radioRecoveries == 1)
        #expect(opened.items.first?.closed == true)
        let lines = try EventLogReader(path: eventPath)
        let lost = try #require(try lines.events("radioLost").first)
        #expect(lost["radio"] as? String == "ble" && lost["device"] as? String == "hci0")
        #expect((lost["error"] as? String)?.contains("errno \(ENETDOWN)") == true)
        let recovered = try #require(try lines.events("radioRecovered").first)
        #expect(recovered["attempts"] as? Int == 2)
    }

    @Test func aControllerThatGoesDownQuietlyIsNoticedAndRecovered() throws {
        let stop = StopSignal()
        let openings = LockedList<Int>()
        let result = try run(stop: stop) { _ in
            openings.append(1)
            let script: [ScriptedController.Step] = openings.items.count == 1 ? [.goDown] : [.packet(iBeaconReport())]
            return ScriptedController(supportedCommands: ScriptedController.bitmap(), script: script, stop: stop)
        }
        #expect(openings.items.count == 2)
        #expect(result.counts.radioFailures == 1 && result.counts.radioRecoveries == 1 && result.heard.count == 1)
    }

    @Test func anUnexpectedReadErrorEndsTheScan() throws {
        let stop = StopSignal()
        let controller = ScriptedController(supportedCommands: ScriptedController.bitmap(), script: [.error(EBADF)], stop: stop)
        #expect(throws: SystemError.self) { try run(stop: stop) { _ in controller } }
    }

    @Test func theStreamStopsWhenItsConsumerGoesAway() async throws {
        let stop = StopSignal()
        let controller = ScriptedController(
            supportedCommands: ScriptedController.bitmap(), script: Array(repeating: .packet(iBeaconReport()), count: 100_000), stop: stop
        )
        let scanner = HCIBLEScanner(
            device: "hci0", settings: HCIScanSettings(), counters: RadioCounters(), events: .disabled(logger: quietLogger),
            logger: quietLogger, open: { _ in controller }
        )
        var received = 0
        for try await _ in scanner.advertisements() {
            received += 1
            if received == 3 { break }
        }
        for await _ in controller.closing {} // until the socket is closed
        #expect(controller.closed)
        #expect(controller.opcodes.last == legacyEnable && controller.sent.last?.parameters.first == 0, "scanning disabled")
    }
}
