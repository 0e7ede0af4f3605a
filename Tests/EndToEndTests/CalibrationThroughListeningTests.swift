import Foundation
import Harness
import Positioning
import ScanContract
import Testing

/// The automatic receive offset in the real deployment path: a placed `scannerd run --listen`
/// process on the simulated radio, whose receiver reads 6 dB above the path-loss model, learns
/// through its long-poll of a beacon registered after it started, forwards its windows, and
/// switchd's placement then shows an estimated offset of about −6 dB. The beacon is located as
/// nothing (it is not a tag), and once it is deleted the scanner stops sending it.
@Suite("End to end: a listening scanner calibrates on a placed beacon", .serialized)
struct CalibrationThroughListeningTests {
    /// What the simulated receiver reads above the model, dB: switchd should estimate −gain.
    static let gain = 6
    /// Windows of the beacon to wait for before reading the estimate.
    static let windows = 20
    /// How far the estimate may be from −gain, dB: the beacon's 4 dB of shadowing, about 10
    /// advertisements a window, so a window's median is within about 1.6 dB and the median of
    /// 20 windows within about 0.5 dB (1 σ); 1.5 dB is three of those.
    static let tolerance = 1.5

    @Test func aListeningScannerHearsAPlacedBeaconAndSwitchdEstimatesItsOffset() async throws {
        let site = try await TrackingSite.start("e2e-calibrate", locationAt: 5, 5)
        defer { site.stop() }
        let api = site.api
        // The demo floor's beacons: −59 dBm at 1 m, exponent 2.5, in the plane of the scanner.
        try await site.placeScanner("default", at: 5, 5, height: 1, pathLossExponent: 2.5)
        let scannerd = try await ScannerdInstance.start(in: site.folder, switchd: site.switchd, arguments: [
            "--listen", "--sim-trajectory", "5,5", "--no-sim-follow-survey", "--sim-receiver-gain", "\(Self.gain)",
            "--sim-tag", "5,6", "--sim-seed", "15",
        ])
        defer { scannerd.process.signal(SIGKILL) }

        // The demo floor's beacon 1 stands at (1, 1), 5.7 m away; registered once scannerd runs.
        let demo = SimulatedFloor.demo().beacons[0]
        let beacon = try await api.createBeacon(NewBeacon(
            uuid: demo.ble.beacon.uuid, major: demo.ble.beacon.major, minor: demo.ble.beacon.minor, floorID: site.floor.id,
            x: demo.position.x, y: demo.position.y, z: 1, measuredPower: demo.ble.txPower
        ))
        let heard = try await scannerd.waitForEvents(atLeast: Self.windows, timeout: .seconds(120)) {
            $0.event == "sightings" && $0.stored == 1 && $0.count == 1
        }
        #expect(heard.allSatisfy { $0.ignored == 0 })

        let placement = try await api.call("GET", "/v1/scanners/default/placement", as: ScannerPlacement.self)
        let estimate = try #require(placement.estimatedReceiveOffset, "switchd estimated an offset")
        print("listening scanner, receiver \(Self.gain) dB hot: estimated receive offset \(estimate) dB from \(placement.calibrationSamples) windows")
        #expect(abs(estimate + Double(Self.gain)) <= Self.tolerance, "estimate \(estimate) dB")
        #expect(placement.calibrationSamples >= Self.windows && placement.receiveOffset == estimate)
        // What the admin plan draws on the scanner's square.
        let listed = try await api.call("GET", "/v1/placements?floor=\(site.floor.id)", as: [ScannerPlacement].self)
        #expect(listed.first { $0.scannerID == .default }?.receiveOffset == estimate, "the admin plan shows it")
        #expect(try await api.call("GET", "/v1/tags", as: Page<ScanContract.Tag>.self).items.isEmpty, "a beacon is no tag: nothing was located")

        // A tag joins the list: windows now carry both; the beacon deleted, only the tag.
        let standing = SimulatedFloor.MovingTag.demo(walking: .standing(PlanPoint(x: 5, y: 6)), minor: 1)
        let tag = try await site.registerTag(NewTag(name: "Keys", identity: .iBeacon(standing.ble.beacon), txPower: standing.ble.txPower, height: 1))
        _ = try await scannerd.waitForEvent(timeout: .seconds(60)) { $0.event == "sightings" && $0.stored == 2 }
        let tagAlone: @Sendable (ScannerEvent) -> Bool = { $0.event == "sightings" && $0.count == 1 && $0.stored == 1 && $0.ignored == 0 }
        let aloneBefore = scannerd.events().filter(tagAlone).count
        #expect(try await api.send("DELETE", "/v1/beacons/\(beacon.id)").status == 204)
        // Windows of one sighting, stored: the tag's (the beacon's would now be ignored).
        _ = try await scannerd.waitForEvents(atLeast: aloneBefore + 3, timeout: .seconds(60), where: tagAlone)
        let sightings = try await api.call("GET", "/v1/tags/\(tag.id)/sightings?limit=10", as: [StoredSighting].self)
        #expect(!sightings.isEmpty)

        #expect(await scannerd.process.terminate() == 0, "scannerd stops cleanly; stderr:\n\(scannerd.process.stderrTail(8))")
    }
}
