import Foundation
import ScanContract
import Testing
@testable import scannerd

/// The scan controller driving the simulated radio into a real spool.
@Suite("Scan controller")
struct ScanControllerTests {
    struct Rig {
        let directory: TemporaryDirectory
        let spool: Spool
        let switches: AsyncStream<ScanSwitch>.Continuation
        let running: Task<Void, Never>
        var eventLog: EventLogReader { EventLogReader(path: directory.file("events.jsonl")) }

        init() throws {
            directory = try TemporaryDirectory()
            let events = try EventLog(.file(directory.file("events.jsonl")), logger: quietLogger)
            let spool = try makeSpool(in: directory.file("spool"), events: events)
            let radio = SimulatedRadio(
                floor: .demo(),
                settings: SimulationSettings(seed: 8, advertisingRate: 100, wifiScanDuration: .milliseconds(20), followSurvey: false),
                surveyPositions: nil, logger: quietLogger
            )
            let (stream, continuation) = AsyncStream.makeStream(of: ScanSwitch.self)
            let controller = ScanController(switches: stream, radio: radio, spool: spool, positioner: nil, events: events, logger: quietLogger)
            running = Task { await controller.run() }
            self.spool = spool
            switches = continuation
        }

        func flip(_ revision: Int, scanning: Bool, stopAfter: StopCondition? = nil) {
            switches.yield(ScanSwitch(
                scannerID: testScanner, scanning: scanning, mode: .locate, stopAfter: stopAfter, revision: revision, changedAt: Date()
            ))
        }

        func waitFor(_ entry: String) async throws {
            try await eventually(entry) { try eventLog.sessionTimeline().contains(entry) }
        }

        /// Every measurement spooled so far, in the order appended, with its revision.
        func spooled() async throws -> [(revision: Int, measurement: ScanContract.Measurement)] {
            try await spool.sealOpenBatch()
            return try spool.decodedReadyBatches().flatMap { batch in batch.measurements.map { (batch.switchRevision, $0) } }
        }

        func finish() async {
            switches.finish()
            await running.value
        }
    }

    @Test func aSessionStopsAfterItsNumberOfScans() async throws {
        let rig = try Rig()
        rig.flip(2, scanning: true, stopAfter: .scans(3))
        try await rig.waitFor("idle 2")
        let spooled = try await rig.spooled()
        #expect(spooled.allSatisfy { $0.revision == 2 })
        let wifi = spooled.map(\.measurement).filter { $0.kind == .wifi }
        let ble = spooled.map(\.measurement).filter { $0.kind == .ble }
        #expect(Set(wifi.map(\.scan)) == [0, 1, 2])
        #expect(Set(ble.map(\.scan)).isSubset(of: [0, 1, 2]))
        #expect(!ble.isEmpty)
        #expect(wifi.map(\.scan) == wifi.map(\.scan).sorted(), "scan indices increase")
        #expect(ble.map(\.scan) == ble.map(\.scan).sorted(), "scan indices increase")
        #expect(Set(spooled.map(\.measurement.id)).count == spooled.count, "every reading has its own ID")
        // The last batch tells switchd all three scans are complete; none claims more than its
        // readings show.
        let batches = try rig.spool.decodedReadyBatches()
        #expect(batches.last?.scansCompleted == 3)
        for batch in batches {
            if let claimed = batch.scansCompleted, let highest = batch.measurements.map(\.scan).max() {
                #expect(claimed >= highest, "a batch never claims fewer scans than its readings show")
            }
        }
        // Nothing more arrives once the session has stopped.
        try await Task.sleep(for: .milliseconds(100))
        #expect(try await rig.spooled().count == spooled.count)
        #expect(try rig.eventLog.sessionTimeline() == ["scanning 2", "idle 2"])
        await rig.finish()
    }

    @Test func aSessionStopsAfterItsTime() async throws {
        let rig = try Rig()
        let start = ContinuousClock.now
        rig.flip(3, scanning: true, stopAfter: .seconds(0.3))
        try await rig.waitFor("idle 3")
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(300))
        // Generous: the suite runs ~400 tests at once on two cores, and a loaded disk can stall
        // the spool's fsync for seconds; the point is that the session ends by itself, which it
        // would not without its stop condition.
        #expect(elapsed < .seconds(30))
        #expect(try await !rig.spooled().isEmpty)
        await rig.finish()
    }

    @Test func flippingOffStopsTheSession() async throws {
        let rig = try Rig()
        rig.flip(2, scanning: true)
        try await rig.waitFor("scanning 2")
        try await eventually("readings") { try await !rig.spooled().isEmpty }
        rig.flip(3, scanning: false)
        try await rig.waitFor("idle 2")
        let count = try await rig.spooled().count
        try await Task.sleep(for: .milliseconds(150))
        #expect(try await rig.spooled().count == count, "no readings after the switch went off")
        #expect(try rig.eventLog.sessionTimeline() == ["scanning 2", "idle 2"])
        await rig.finish()
    }

    @Test func aNewRevisionRestartsTheSession() async throws {
        let rig = try Rig()
        rig.flip(2, scanning: true)
        try await rig.waitFor("scanning 2")
        try await eventually("wifi readings of revision 2") {
            try await rig.spooled().contains { $0.revision == 2 && $0.measurement.kind == .wifi && $0.measurement.scan >= 1 }
        }
        rig.flip(3, scanning: true)
        try await rig.waitFor("scanning 3")
        try await eventually("wifi readings of revision 3") {
            try await rig.spooled().contains { $0.revision == 3 && $0.measurement.kind == .wifi }
        }
        rig.flip(4, scanning: false)
        try await rig.waitFor("idle 3")
        #expect(try rig.eventLog.sessionTimeline() == ["scanning 2", "idle 2", "scanning 3", "idle 3"])

        let spooled = try await rig.spooled()
        let revisions = spooled.map(\.revision)
        #expect(revisions == revisions.sorted(), "the old session ended before the new one began")
        #expect(Set(revisions) == [2, 3])
        let third = spooled.filter { $0.revision == 3 }.map(\.measurement)
        #expect(third.map(\.scan).min() == 0, "the new session counts its scans from 0")
        await rig.finish()
    }

    @Test func aRepeatedRevisionIsIgnored() async throws {
        let rig = try Rig()
        rig.flip(2, scanning: true)
        try await rig.waitFor("scanning 2")
        rig.flip(2, scanning: true)
        rig.flip(3, scanning: false)
        try await rig.waitFor("idle 2")
        #expect(try rig.eventLog.sessionTimeline() == ["scanning 2", "idle 2"])
        await rig.finish()
    }
}
