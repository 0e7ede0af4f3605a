import Foundation
import Harness
import ScanContract
import Testing

/// Nothing lost, nothing duplicated: while scannerd uploads thousands of readings, switchd is
/// SIGKILLed several times and scannerd once; every reading scannerd sealed into a batch ends up
/// stored exactly once.
@Suite("End to end: crashes lose and duplicate nothing", .serialized)
struct CrashTests {
    @Test func killingEitherProcessLosesAndDuplicatesNothing() async throws {
        let folder = try TemporaryFolder("crash")
        defer { folder.remove() }
        var switchd = try await SwitchdInstance.start(in: folder)
        let port = switchd.port
        let eventsPath = folder.path("scannerd-events.jsonl")
        // 4 beacons × 250 Hz ≈ 1,000 readings a second, in batches of up to 200.
        let scannerArguments = ["--sim-advertising-hz", "250", "--sim-wifi-scan-ms", "100", "--batch-size", "200", "--batch-age-ms", "100"]
        var scannerd = try await ScannerdInstance.start(in: folder, switchd: switchd, eventsPath: eventsPath, arguments: scannerArguments)
        defer {
            scannerd.process.signal(SIGKILL)
            switchd.process.signal(SIGKILL)
        }
        let api = switchd.adminClient()
        let floor = try await api.createFloor("Ground")
        let room = try await api.createRoom("Hall", floor: floor)
        let spot = try await api.createLocation(in: room, x: 12, y: 8)
        let on = try await api.patchSwitch(SwitchPatch(scanning: true, mode: .survey, locationID: .set(spot.id)))
        _ = try await scannerd.waitForEvent { $0.event == "scanning" && $0.revision == on.revision }

        var switchdKills = 0
        for round in 0..<5 {
            // A few more batches through this switchd (more each round, so the kills fall at
            // different points of the upload), then it dies.
            try await waitForMore("acked", round + 2, from: scannerd)
            await switchd.process.kill()
            switchdKills += 1
            // Readings pile up while switchd is away.
            try await waitForMore("sealed", 2, from: scannerd)
            if round == 2 {
                // scannerd dies too, with readings in its open journal and batches waiting; it
                // comes back (with its token: switchd is down) before switchd does.
                await scannerd.process.kill()
                scannerd = try await ScannerdInstance.start(
                    in: folder, switchd: switchd, token: scannerd.token, eventsPath: eventsPath, arguments: scannerArguments, label: "scannerd-restarted"
                )
            }
            switchd = try await SwitchdInstance.start(in: folder, port: port, label: "switchd-\(round + 1)")
        }
        try await waitForMore("acked", 2, from: scannerd)

        // Stop scanning; scannerd seals what it holds and uploads everything.
        let off = try await api.patchSwitch(SwitchPatch(scanning: false))
        #expect(!off.scanning)
        let sealedIDs = try await waitUntilEverySealedBatchIsAcknowledged(eventsPath: eventsPath, spool: folder.path("scannerd-state/spool"), scannerd: scannerd)

        let stored = try await api.allMeasurements(query: "location=\(spot.id)")
        let storedIDs = stored.map(\.measurement.id)
        #expect(sealedIDs.count >= 2_000, "the test produced thousands of readings (\(sealedIDs.count))")
        #expect(storedIDs.count == Set(storedIDs).count, "no reading is stored twice")
        let missing = sealedIDs.subtracting(storedIDs)
        let unexpected = Set(storedIDs).subtracting(sealedIDs)
        #expect(missing.isEmpty, "every reading scannerd produced is stored: \(missing.count) of \(sealedIDs.count) missing, e.g. \(missing.prefix(3))")
        #expect(unexpected.isEmpty, "only readings scannerd produced are stored: \(unexpected.count) unexpected, e.g. \(unexpected.prefix(3))")
        if !unexpected.isEmpty {
            let batches = Set(stored.filter { unexpected.contains($0.measurement.id) }.map(\.batchID))
            let events = ScannerEvent.read(from: eventsPath)
            for batch in batches {
                let mentions = events.filter { $0.batchID == batch }.map(\.event)
                let raw = (try? String(contentsOfFile: eventsPath, encoding: .utf8))?.components(separatedBy: "\n").filter { $0.contains(batch.uuidString) }.map { String($0.prefix(300)) } ?? []
                Swift.print("crash test: unexpected batch \(batch): parsed events \(mentions); raw lines: \(raw)")
            }
            dumpStderr(of: scannerd)
        }
        #expect(switchdKills == 5)
        let duplicates = ScannerEvent.read(from: eventsPath).filter { $0.event == "acked" && $0.duplicate == true }.count
        print("crash test: \(sealedIDs.count) readings sealed, \(storedIDs.count) stored, switchd killed \(switchdKills)×, scannerd 1×, \(duplicates) replayed batches acknowledged as duplicates")
        #expect(await scannerd.process.terminate() == 0)
        #expect(await switchd.process.terminate() == 0)
    }

    /// Waits until scannerd has written `more` events named `name` beyond those written so far.
    func waitForMore(_ name: String, _ more: Int, from scannerd: ScannerdInstance) async throws {
        let written = scannerd.events().filter { $0.event == name }.count
        _ = try await scannerd.waitForEvents(atLeast: written + more, timeout: .seconds(60)) { $0.event == name }
    }

    func dumpStderr(of scannerd: ScannerdInstance) {
        Swift.print("crash test: scannerd stderr:\n\(scannerd.process.stderrTail(40))")
    }

    /// Every batch scannerd sealed (under any of its lives) has been acknowledged and its spool is
    /// empty (no open journal, no batch waiting); returns the union of the readings sealed.
    func waitUntilEverySealedBatchIsAcknowledged(eventsPath: String, spool: String, scannerd: ScannerdInstance) async throws -> Set<UUID> {
        func isEmpty(_ folder: String) -> Bool {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).allSatisfy { $0.hasPrefix(".") }
        }
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            let events = ScannerEvent.read(from: eventsPath)
            let sealed = events.filter { $0.event == "sealed" }
            let acked = Set(events.filter { $0.event == "acked" }.compactMap(\.batchID))
            let rejected = events.filter { $0.event == "rejected" }
            #expect(rejected.isEmpty, "no batch is rejected")
            let idle = events.last { $0.event == "idle" || $0.event == "scanning" }?.event == "idle"
            // The spool is checked after the events were read, and the events read again after
            // that: a batch sealed and acknowledged in between shows up as a new `sealed` line.
            if idle, !sealed.isEmpty, sealed.allSatisfy({ $0.batchID.map(acked.contains) == true }),
               isEmpty(spool + "/journal"), isEmpty(spool + "/ready") {
                let again = ScannerEvent.read(from: eventsPath).filter { $0.event == "sealed" }
                if again.count == sealed.count {
                    return Set(sealed.flatMap { $0.ids ?? [] })
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw HarnessError("scannerd did not get every sealed batch acknowledged; stderr:\n\(scannerd.process.stderrTail())")
    }
}
