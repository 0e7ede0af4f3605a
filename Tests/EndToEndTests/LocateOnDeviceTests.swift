import Foundation
import Harness
import Positioning
import ScanContract
import Testing

/// On-device positioning with real processes: the admin surveys a grid on the simulated floor and
/// registers its beacons; scannerd, switched to locate mode, fetches the radio map, positions every
/// scan itself and posts where it is — and keeps positioning from its saved map when switchd is gone.
@Suite("End to end: locate on the device", .serialized)
struct LocateOnDeviceTests {
    /// Where the simulated scanner stands while locating (the demo floor is 40 m × 20 m).
    static let standing = PlanPoint(x: 22, y: 8)

    @Test func surveyedGridThenPositionsNearTheTruth() async throws {
        let folder = try TemporaryFolder("e2e-locate")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(in: folder)
        let scannerd = try await ScannerdInstance.start(in: folder, switchd: switchd, arguments: [
            "--sim-wifi-scan-ms", "150", "--sim-seed", "11", "--sim-trajectory", "\(Self.standing.x),\(Self.standing.y)",
        ])
        defer {
            scannerd.process.signal(SIGKILL)
            switchd.process.signal(SIGKILL)
        }
        let api = switchd.adminClient()
        let floor = try await api.createFloor("Ground")
        let room = try await api.createRoom("Open office", floor: floor)
        var grid: [Location] = []
        for y in [4.0, 16.0] {
            for x in [4.0, 14.0, 26.0, 36.0] {
                grid.append(try await api.createLocation(in: room, x: x, y: y))
            }
        }
        for location in grid {
            let on = try await api.patchSwitch(SwitchPatch(scanning: true, mode: .survey, locationID: .set(location.id), stopAfter: .set(.scans(4))))
            _ = try await waitForSwitch(api, after: on.revision) { !$0.scanning }
            try await waitForEverySealedBatchAcknowledged(scannerd, revision: on.revision)
        }
        for beacon in SimulatedFloor.demo().beacons {
            _ = try await api.createBeacon(NewBeacon(
                uuid: beacon.ble.beacon.uuid, major: beacon.ble.beacon.major, minor: beacon.ble.beacon.minor,
                floorID: floor.id, x: beacon.position.x, y: beacon.position.y, measuredPower: beacon.ble.txPower
            ))
        }

        let map = try await api.send("GET", "/v1/radiomap")
        #expect(map.status == 200)
        let radioMap = try map.decode(RadioMap.self)
        #expect(radioMap.locations.count == grid.count)
        #expect(radioMap.locations.allSatisfy { $0.scans.count >= 4 && !$0.emitters.isEmpty })
        #expect(radioMap.beacons.count == 4)
        // The simulated beacons fade with exponent 2.5 (σ 4 dB): the survey's fit finds about that.
        let exponent = try #require(radioMap.floors.first?.pathLossExponent)
        #expect((1.8...3.2).contains(exponent), "fitted path-loss exponent \(exponent)")

        let locate = try await api.patchSwitch(SwitchPatch(
            scanning: true, mode: .locate, roomID: .set(nil), locationID: .set(nil), storeData: false, stopAfter: .set(nil)
        ))
        let positioned = try await scannerd.waitForEvent(timeout: .seconds(60)) {
            $0.event == "positioned" && $0.revision == locate.revision
        }
        #expect(positioned.position?.floor == floor.id)

        // Give the filter a few scans, then ask switchd where the scanner is, once it has stored
        // a position posted after them (scannerd posts them from a queue of its own).
        try await waitForPositionedCount(scannerd, revision: locate.revision, count: 8)
        let stored = EventStreamClient(url: URL(string: "\(switchd.baseURL.absoluteString)/v1/positions/stream?scannerID=default")!, token: switchd.adminToken)
        defer { stored.close() }
        _ = try await stored.waitForEvents(1, timeout: .seconds(120))
        let latest = try await api.latestPosition()
        let error = hypot(latest.x - Self.standing.x, latest.y - Self.standing.y)
        #expect(error < 6, "positioned at (\(latest.x), \(latest.y)), \(error) m from the truth")
        #expect(latest.floor == floor.id && latest.building == floor.building)
        #expect(latest.roomID == room.id)
        #expect(latest.accuracyMetres > 0 && latest.accuracyMetres < 30)
        #expect(latest.beacons?.count == 4, "every corner beacon is heard, with its proximity")
        #expect(latest.beacons?.allSatisfy { $0.proximity == .far && $0.samples > 0 } == true)
        let nearby = grid.filter { hypot($0.x - Self.standing.x, $0.y - Self.standing.y) < 12 }.map(\.id)
        #expect(latest.nearestLocationID.map(nearby.contains) == true)

        // switchd goes away: scannerd keeps positioning from the map it saved.
        switchd.process.signal(SIGKILL)
        _ = await switchd.process.terminate()
        let before = scannerd.events().filter { $0.event == "positioned" }.count
        try await waitForPositionedCount(scannerd, revision: locate.revision, count: before + 3)
        #expect(await scannerd.process.terminate() == 0, "scannerd stops cleanly on SIGTERM; stderr:\n\(scannerd.process.stderrTail(8))")

        // And a scannerd restarted while switchd is still gone locates from its saved switch and map.
        let restarted = try await ScannerdInstance.start(in: folder, switchd: switchd, token: scannerd.token, arguments: [
            "--sim-wifi-scan-ms", "150", "--sim-trajectory", "\(Self.standing.x),\(Self.standing.y)",
        ], label: "scannerd-offline")
        defer { restarted.process.signal(SIGKILL) }
        let offline = try await restarted.waitForEvent(timeout: .seconds(60)) { $0.event == "positioned" }
        let offlineError = offline.position.map { hypot($0.x - Self.standing.x, $0.y - Self.standing.y) } ?? .infinity
        #expect(offlineError < 10, "positioned offline at \(String(describing: offline.position))")
        #expect(await restarted.process.terminate() == 0)
    }

    func waitForPositionedCount(_ scannerd: ScannerdInstance, revision: Int, count: Int) async throws {
        _ = try await scannerd.waitForEvents(atLeast: count, timeout: .seconds(60)) { $0.event == "positioned" && $0.revision == revision }
    }
}
