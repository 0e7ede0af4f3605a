import Foundation
import Harness
import Positioning
import ScanContract
import Testing
@testable import scannerd

/// The scan controller driving the simulated radio into a real spool, on a clock the test
/// advances: the radio's pace, the Wi-Fi scans and the stop conditions all follow it. The clock
/// moves only while the BLE loop and the Wi-Fi scan (and a timed session's timer) all sleep on
/// it, so neither radio falls behind the other on a slow machine: a session ending after its
/// last Wi-Fi scan has heard every advertisement due by then.
@Suite("Scan controller", .timeLimit(.minutes(1)))
struct ScanControllerTests {
    /// The simulated radio's delivery interval: one step wakes every timer that is due.
    static let step: Duration = .milliseconds(10)
    /// The timers of a scanning session: the BLE loop's and the Wi-Fi scan's.
    static let radioLoops = 2

    struct Rig {
        let directory: TemporaryDirectory
        let spool: Spool
        let clock = ManualClock()
        let tap = EventTap()
        let switches: AsyncStream<ScanSwitch>.Continuation
        let running: Task<Void, Never>

        /// `settings`: where the controller applies switchd's settings (none by default).
        init(settings: LiveSettings? = nil) throws {
            directory = try TemporaryDirectory()
            let events = try EventLog(.file(directory.file("events.jsonl")), logger: quietLogger, tap: tap.record)
            let spool = try makeSpool(in: directory.file("spool"), events: events)
            let radio = SimulatedRadio(
                floor: .demo(),
                settings: SimulationSettings(seed: 8, advertisingRate: 100, wifiScanDuration: .milliseconds(20), followSurvey: false),
                surveyPositions: nil, logger: quietLogger, clock: clock,
                wallClock: impliedWallClock(of: clock, from: Date(timeIntervalSince1970: 1_795_000_000))
            )
            let (stream, continuation) = AsyncStream.makeStream(of: ScanSwitch.self)
            let controller = ScanController(
                switches: stream, radio: radio, spool: spool, positioner: nil, events: events, logger: quietLogger, clock: clock,
                settings: settings
            )
            running = Task { await controller.run() }
            self.spool = spool
            switches = continuation
        }

        func flip(_ revision: Int, scanning: Bool, stopAfter: StopCondition? = nil) {
            switches.yield(ScanSwitch(
                scannerID: testScanner, scanning: scanning, mode: .locate, stopAfter: stopAfter, revision: revision,
                changedAt: Date(timeIntervalSince1970: 1_795_000_000)
            ))
        }

        /// Runs the radio's time forward until `entry` is in the session timeline, a step at a
        /// time once `asleep` timers sleep: the BLE loop and the Wi-Fi scan, and the timer of a
        /// session that stops after some seconds.
        func run(until entry: String, asleep: Int = ScanControllerTests.radioLoops) async {
            await clock.step(by: ScanControllerTests.step, whenAsleep: asleep) { tap.saw(entry) }
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
        await rig.run(until: "idle 2")
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
        // Nothing more arrives once the session has stopped, however far the radio's time runs.
        rig.clock.advance(by: .seconds(1))
        #expect(try await rig.spooled().count == spooled.count)
        #expect(rig.tap.timeline == ["scanning 2", "idle 2"])
        await rig.finish()
    }

    @Test func aSessionStopsAfterItsTime() async throws {
        let rig = try Rig()
        rig.flip(3, scanning: true, stopAfter: .seconds(5))
        await rig.tap.waitFor("scanning 3")
        rig.clock.advance(by: .milliseconds(4_990))
        #expect(!rig.tap.saw("idle 3"), "still scanning 10 ms before its time is up")
        await rig.run(until: "idle 3", asleep: Self.radioLoops + 1)
        #expect(try await !rig.spooled().isEmpty)
        await rig.finish()
    }

    @Test func flippingOffStopsTheSession() async throws {
        let rig = try Rig()
        rig.flip(2, scanning: true)
        await rig.tap.waitFor("scanning 2")
        try await rig.clock.step(by: Self.step, whenAsleep: Self.radioLoops) { try await !rig.spooled().isEmpty }
        rig.flip(3, scanning: false)
        await rig.tap.waitFor("idle 2")
        let count = try await rig.spooled().count
        rig.clock.advance(by: .seconds(1))
        #expect(try await rig.spooled().count == count, "no readings after the switch went off")
        #expect(rig.tap.timeline == ["scanning 2", "idle 2"])
        await rig.finish()
    }

    @Test func aNewRevisionRestartsTheSession() async throws {
        let rig = try Rig()
        rig.flip(2, scanning: true)
        await rig.tap.waitFor("scanning 2")
        try await rig.clock.step(by: Self.step, whenAsleep: Self.radioLoops) {
            try await rig.spooled().contains { $0.revision == 2 && $0.measurement.kind == .wifi && $0.measurement.scan >= 1 }
        }
        rig.flip(3, scanning: true)
        await rig.tap.waitFor("scanning 3")
        try await rig.clock.step(by: Self.step, whenAsleep: Self.radioLoops) {
            try await rig.spooled().contains { $0.revision == 3 && $0.measurement.kind == .wifi }
        }
        rig.flip(4, scanning: false)
        await rig.tap.waitFor("idle 3")
        #expect(rig.tap.timeline == ["scanning 2", "idle 2", "scanning 3", "idle 3"])

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
        await rig.tap.waitFor("scanning 2")
        rig.flip(2, scanning: true)
        rig.flip(3, scanning: false)
        await rig.tap.waitFor("idle 2")
        #expect(rig.tap.timeline == ["scanning 2", "idle 2"])
        await rig.finish()
    }
}

/// "Only our access points": readings the switch's allow-list leaves out never reach the spool,
/// so they can never be uploaded.
@Suite("Scan allow-list", .timeLimit(.minutes(1)))
struct ScanAllowListTests {
    @Test func readingsOutsideTheAllowListNeverReachTheSpool() async throws {
        let rig = try ScanControllerTests.Rig()
        let floor = SimulatedFloor.demo()
        let ours = try #require(floor.accessPoints.first).wifi
        #expect(floor.accessPoints.count > 1, "the demo floor must hear foreign access points too")
        rig.switches.yield(ScanSwitch(
            scannerID: testScanner, scanning: true, mode: .locate, stopAfter: .scans(3), revision: 2,
            changedAt: Date(timeIntervalSince1970: 1_795_000_000), allowList: ScanAllowList(bssids: [ours.bssid])
        ))
        await rig.run(until: "idle 2")
        let spooled = try await rig.spooled().map(\.measurement)
        let wifi = spooled.compactMap { measurement -> WiFiObservation? in
            guard case .wifi(let observation) = measurement.observation else { return nil }
            return observation
        }
        #expect(!wifi.isEmpty, "our access point is still heard")
        #expect(Set(wifi.map(\.bssid)) == [ours.bssid])
        #expect(spooled.contains { $0.kind == .ble }, "BLE readings are not filtered")
        await rig.finish()
    }
}
