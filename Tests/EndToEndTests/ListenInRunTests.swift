import Foundation
import Harness
import Positioning
import ScanContract
import Testing

/// `scannerd run --listen` with real processes: one scannerd surveys and, from the same BLE
/// scan, forwards sightings of the tags switchd pushes with the switch. Two simulated tags stand
/// by it; while no tag is registered nothing is forwarded, a tag registered through the API
/// after the process started is forwarded without a restart, and the other one never is (every
/// batch switchd answered had nothing it did not know).
@Suite("End to end: scannerd run surveys and listens", .serialized)
struct ListenInRunTests {
    @Test func oneRunProcessSurveysAndForwardsOnlyTheWatchedTag() async throws {
        let site = try await TrackingSite.start("e2e-listen", locationAt: 20, 10)
        defer { site.stop() }
        let (api, spot) = (site.api, site.location)
        let scannerd = try await ScannerdInstance.start(in: site.folder, switchd: site.switchd, arguments: [
            "--listen", "--sim-wifi-scan-ms", "200", "--sim-tag", "21,10", "--sim-tag", "19,10",
        ])
        defer { scannerd.process.signal(SIGKILL) }

        // A survey while no tag is registered: both tags are heard (their readings are stored
        // like any beacon's), none is forwarded.
        let survey = try await api.patchSwitch(SwitchPatch(scanning: true, mode: .survey, locationID: .set(spot.id), stopAfter: .set(.scans(10))))
        _ = try await waitForSwitch(api, after: survey.revision) { !$0.scanning }
        try await waitForEverySealedBatchAcknowledged(scannerd, revision: survey.revision)
        let tagTimes = try await api.allMeasurements(query: "location=\(spot.id)").compactMap { row -> Date? in
            guard case .ble(let ble) = row.measurement.observation, ble.beacon.major == 2 else { return nil }
            return row.measurement.time
        }
        let heardFor = try #require(tagTimes.max()).timeIntervalSince(try #require(tagTimes.min()))
        #expect(heardFor > 1.5, "the tags were heard over more than a window")
        #expect(scannerd.events().filter { $0.event == "sightings" }.isEmpty, "nothing watched, nothing forwarded")

        let watched = SimulatedFloor.MovingTag.demo(walking: .standing(PlanPoint(x: 21, y: 10)), minor: 1)
        let tag = try await site.registerTag(NewTag(name: "Bike", identity: .iBeacon(watched.ble.beacon), txPower: watched.ble.txPower))
        let forwarded = try await scannerd.waitForEvents(atLeast: 2) { $0.event == "sightings" && ($0.stored ?? 0) > 0 }

        // Scanning again while listening: the session takes the shared loop, the role goes on.
        let again = try await api.patchSwitch(SwitchPatch(scanning: true, mode: .survey, locationID: .set(spot.id), stopAfter: .set(.scans(5))))
        _ = try await waitForSwitch(api, after: again.revision) { !$0.scanning }
        try await waitForEverySealedBatchAcknowledged(scannerd, revision: again.revision)
        let after = try await scannerd.waitForEvents(atLeast: forwarded.count + 2) { $0.event == "sightings" }

        #expect(after.allSatisfy { $0.ignored == 0 && $0.stored == $0.count }, "only the registered tag was ever sent")
        let sightings = try await api.call("GET", "/v1/tags/\(tag.id)/sightings?limit=500", as: [StoredSighting].self)
        #expect(sightings.count >= after.count && sightings.allSatisfy { $0.scannerID == .default })
        let ble = try await api.allMeasurements(query: "location=\(spot.id)").filter { $0.switchRevision == again.revision && $0.measurement.kind == .ble }
        #expect(!ble.isEmpty, "the second survey stored BLE readings")

        #expect(await scannerd.process.terminate() == 0, "scannerd stops cleanly; stderr:\n\(scannerd.process.stderrTail(8))")
    }
}
