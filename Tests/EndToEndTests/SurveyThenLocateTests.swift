import Foundation
import Harness
import Positioning
import ScanContract
import Testing

/// The main loop with real processes on loopback: an admin surveys two locations, then switches
/// the scanner to locate mode; readings reach the measurement API and its live stream.
@Suite("End to end: survey then locate", .serialized)
struct SurveyThenLocateTests {
    @Test func surveyTwoLocationsThenLocate() async throws {
        let folder = try TemporaryFolder("e2e")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(in: folder)
        let scannerd = try await ScannerdInstance.start(in: folder, switchd: switchd, arguments: ["--sim-wifi-scan-ms", "200"])
        defer {
            scannerd.process.signal(SIGKILL)
            switchd.process.signal(SIGKILL)
        }
        let api = switchd.adminClient()

        let floor = try await api.createFloor("Ground")
        let room = try await api.createRoom("Lab", floor: floor)
        let a = try await api.createLocation(in: room, x: 4, y: 4, name: "by the door")
        let b = try await api.createLocation(in: room, x: 30, y: 15, name: "far corner")

        // From the start of the feed (nothing is stored yet), so no reading can slip past before
        // the stream is connected.
        let live = EventStreamClient(url: switchd.baseURL.appendingPathComponent("v1/measurements/stream"), lastEventID: "0", token: switchd.adminToken)
        defer { live.close() }

        var stored: [Int64: [StoredMeasurement]] = [:]
        for location in [a, b] {
            let on = try await api.patchSwitch(SwitchPatch(scanning: true, mode: .survey, locationID: .set(location.id), stopAfter: .set(.scans(3))))
            #expect(on.roomID == room.id, "the room comes from the location")
            // The switch turns itself off after three scans: wait for that revision by long-poll.
            let off = try await waitForSwitch(api, after: on.revision) { !$0.scanning }
            #expect(off.stoppedBy == .stopCondition)
            #expect(off.scansCompleted == 3)
            try await waitForEverySealedBatchAcknowledged(scannerd, revision: on.revision)
            let rows = try await api.allMeasurements(query: "location=\(location.id)")
            #expect(!rows.isEmpty)
            #expect(rows.allSatisfy { $0.locationID == location.id && $0.roomID == room.id && $0.mode == .survey && $0.switchRevision == on.revision })
            #expect(Set(rows.map(\.measurement.kind)) == [.wifi, .ble], "both radios were heard")
            #expect(Set(rows.map(\.measurement.scan)) == [0, 1, 2])
            #expect(Set(rows.filter { $0.measurement.kind == .wifi }.map(\.measurement.scan)) == [0, 1, 2], "all three Wi-Fi scans are in before the switch turns off")
            stored[location.id] = rows
        }

        // The simulated scanner stood where each location is: the AP next to A is louder at A.
        let nearA = SimulatedFloor.demo().accessPoints[0].wifi.bssid
        func meanRSSI(_ rows: [StoredMeasurement]) -> Double {
            let values = rows.compactMap { row -> Int? in
                if case .wifi(let wifi) = row.measurement.observation, wifi.bssid == nearA { return row.measurement.rssi }
                return nil
            }
            return Double(values.reduce(0, +)) / Double(max(values.count, 1))
        }
        #expect(meanRSSI(stored[a.id]!) > meanRSSI(stored[b.id]!) + 10)

        // The live stream carried every stored reading, in order, each exactly once.
        let surveyed = (stored[a.id]! + stored[b.id]!).sorted { $0.sequence < $1.sequence }
        let events = try await live.waitForEvents(surveyed.count)
        let streamed = try events.map { try JSONCoding.decoder().decode(StoredMeasurement.self, from: Data($0.data.utf8)) }
        #expect(streamed.map(\.sequence) == surveyed.map(\.sequence))
        #expect(events.map(\.id) == surveyed.map { String($0.sequence) })
        #expect(streamed.map(\.measurement.id) == surveyed.map(\.measurement.id))

        // A second subscriber resuming from the 10th reading gets exactly what came after it.
        let resumeFrom = surveyed[9].sequence
        let resumed = EventStreamClient(url: switchd.baseURL.appendingPathComponent("v1/measurements/stream"), lastEventID: String(resumeFrom), token: switchd.adminToken)
        defer { resumed.close() }
        let replay = try await resumed.waitForEvents(surveyed.count - 10)
        #expect(replay.map(\.id) == surveyed.dropFirst(10).map { String($0.sequence) })

        // Locate without storing: scannerd scans and uploads, switchd acknowledges and keeps nothing.
        let before = try await api.allMeasurements().count
        // stopAfter outlives a run (an admin sets "20 scans" once and moves from spot to spot), so
        // locating until told otherwise clears it.
        let locate = try await api.patchSwitch(SwitchPatch(scanning: true, mode: .locate, roomID: .set(nil), locationID: .set(nil), storeData: false, stopAfter: .set(nil)))
        #expect(locate.mode == .locate && !locate.storeData)
        _ = try await scannerd.waitForEvent { $0.event == "scanning" && $0.revision == locate.revision }
        let locateBatches = try await waitForAckedBatches(scannerd, revision: locate.revision, count: 2)
        #expect(locateBatches.allSatisfy { $0.stored == 0 })
        #expect(try await api.allMeasurements().count == before)

        // Locate with storeData: readings are kept, untagged by location, in locate mode.
        let keep = try await api.patchSwitch(SwitchPatch(storeData: true))
        _ = try await waitForAckedBatches(scannerd, revision: keep.revision, count: 1)
        let kept = try await api.allMeasurements(query: "scanner=default").filter { $0.switchRevision == keep.revision }
        #expect(!kept.isEmpty && kept.allSatisfy { $0.mode == .locate && $0.locationID == nil })

        let stopped = try await api.patchSwitch(SwitchPatch(scanning: false))
        _ = try await scannerd.waitForEvent { $0.event == "idle" && $0.revision == keep.revision }
        #expect(!stopped.scanning)
        let scannerdStatus = await scannerd.process.terminate()
        #expect(scannerdStatus == 0, "scannerd stops cleanly on SIGTERM; stderr:\n\(scannerd.process.stderrTail(8))")
        #expect(await switchd.process.terminate() == 0, "switchd stops cleanly on SIGTERM")
    }
}

/// Long-polls the switch until `done` holds.
func waitForSwitch(_ api: APIClient, after revision: Int, timeout: Duration = .seconds(120), until done: (ScanSwitch) -> Bool) async throws -> ScanSwitch {
    let deadline = ContinuousClock.now + timeout
    var seen = revision
    while ContinuousClock.now < deadline {
        let current = try await api.call("GET", "/v1/scanners/default/switch?revision=\(seen)&wait=5", as: ScanSwitch.self)
        if done(current) { return current }
        seen = current.revision
    }
    throw HarnessError("switch did not reach the expected state within \(timeout)")
}

/// Waits until scannerd is idle after `revision` and switchd has acknowledged every batch it
/// sealed for it: from then on switchd holds all the revision's readings. (A session seals its
/// last batch before it records `idle`.)
func waitForEverySealedBatchAcknowledged(_ scannerd: ScannerdInstance, revision: Int) async throws {
    _ = try await scannerd.waitForEvent { $0.event == "idle" && $0.revision == revision }
    let sealed = Set(scannerd.events().filter { $0.event == "sealed" && $0.revision == revision }.compactMap(\.batchID))
    _ = try await scannerd.waitForEvents(atLeast: sealed.count) { $0.event == "acked" && $0.batchID.map(sealed.contains) == true }
}

/// Waits until scannerd has sealed `count` batches of `revision` and had them acknowledged, and
/// returns those acks.
func waitForAckedBatches(_ scannerd: ScannerdInstance, revision: Int, count: Int) async throws -> [ScannerEvent] {
    let sealed = try await scannerd.waitForEvents(atLeast: count) { $0.event == "sealed" && $0.revision == revision }
    let batches = Set(sealed.prefix(count).compactMap(\.batchID))
    return try await scannerd.waitForEvents(atLeast: batches.count) { $0.event == "acked" && $0.batchID.map(batches.contains) == true }
}
