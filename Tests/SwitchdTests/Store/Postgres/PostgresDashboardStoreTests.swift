import Foundation
import ScanContract
import Testing
@testable import SwitchdStore

/// The admin's dashboard and the emitter summary with the same assertions on SQLite and on a
/// real PostgreSQL server (docs/scale-out.md): counts, recent activity and dwell from one
/// snapshot; every access point and beacon heard, with its figures, where it is loudest and the
/// beacon registered for it, paged by key.
@Suite("Dashboard and emitters on both databases", postgresInstalled, .postgresServer)
struct PostgresDashboardStoreTests {
    @Test(arguments: StoreBackend.allCases)
    func theDashboardCountsShowsRecentActivityAndDwell(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (lab, a, b) = try await Self.surveyed(in: database)
            let floor = try await database.floor(lab.floorID)
            let cafe = try await database.createRoom(NewRoom(floorID: floor.id, name: "Café"))
            let other = try ScannerID("pi-2")
            _ = try await database.createScanner(NewScanner(id: other), at: Readings.start)
            // Locating without storing: its batch keeps nothing and is no news in `recent`.
            let locating = try await database.updateSwitch(
                of: .default, with: SwitchPatch(scanning: true, mode: .locate, storeData: false), at: Readings.start
            ).scanSwitch
            _ = try await database.ingest(Readings.batch([Readings.wifi(scan: 1)], revision: locating.revision), at: Readings.start)
            var item = Beacons.new(floorID: floor.id, minor: 1, x: 20, y: 20)
            item.metadata = ["name": "Vase", "content.en": "A vase"]
            let vase = try await database.createBeacon(item)
            for post in [
                Positions.new(floor: floor, x: 1, y: 1, at: 0, roomID: lab.id),
                Positions.new(floor: floor, x: 1, y: 1, at: 10, roomID: lab.id),
                Positions.new(floor: floor, x: 1, y: 1, at: 30, roomID: lab.id),
                Positions.new(floor: floor, x: 20, y: 21, at: 40, roomID: cafe.id),
                Positions.new(floor: floor, x: 21, y: 20, at: 60, roomID: cafe.id),
                Positions.new(scanner: other, floor: floor, x: 2, y: 1, at: 5, roomID: lab.id),
                Positions.new(scanner: other, floor: floor, x: 2, y: 1, at: 15, roomID: lab.id),
            ] {
                _ = try await database.createPosition(post)
            }

            let dashboard = try await database.dashboard(since: Readings.start.addingTimeInterval(-1), now: Readings.start.addingTimeInterval(61))
            #expect(dashboard.counts == DashboardCounts(
                scannersOnline: 2, scanners: 2, readingsToday: 5, positionsToday: 7, locationsSurveyed: 2, locations: 2
            ))
            #expect(dashboard.dwell.rooms == [
                PlaceDwell(id: lab.id, name: "Lab", floorID: floor.id, visits: 2, seconds: 40),
                PlaceDwell(id: cafe.id, name: "Café", floorID: floor.id, visits: 1, seconds: 20),
            ])
            #expect(dashboard.dwell.items == [PlaceDwell(id: vase.id, name: "Vase", floorID: floor.id, visits: 1, seconds: 20)])
            #expect(Set(dashboard.recent.map(\.summary)) == [
                "switch on: locate", "stored 2 readings (survey)", "stored 3 readings (survey)",
                "switch on: survey at location \(a.id)", "switch on: survey at location \(b.id)",
            ])
            #expect(zip(dashboard.recent, dashboard.recent.dropFirst()).allSatisfy { $0.time >= $1.time })
            #expect(dashboard.recent.allSatisfy { $0.scannerID == .default })

            let later = try await database.dashboard(since: Readings.start.addingTimeInterval(3_600), now: Readings.start.addingTimeInterval(7_200))
            #expect(later.counts == DashboardCounts(
                scannersOnline: 0, scanners: 2, readingsToday: 0, positionsToday: 0, locationsSurveyed: 2, locations: 2
            ))
            #expect(later.dwell.rooms.isEmpty && later.dwell.items.isEmpty)
        }
    }

    /// A tag's positions count in the dwell as a visitor of their own (anonymous, like a
    /// scanner's): its stays add to the rooms' and items' beside the scanners'.
    @Test(arguments: StoreBackend.allCases)
    func tagsCountInTheDwellBesideScanners(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (lab, _, _) = try await Self.surveyed(in: database)
            let floor = try await database.floor(lab.floorID)
            var item = Beacons.new(floorID: floor.id, minor: 1, x: 20, y: 20)
            item.metadata = ["name": "Vase", "content.en": "A vase"]
            let vase = try await database.createBeacon(item)
            for seconds in [0.0, 30] {
                _ = try await database.createPosition(Positions.new(floor: floor, x: 1, y: 1, at: seconds, roomID: lab.id))
            }
            let badge = try await database.createTag(NewTag(name: "Visitor 3", identity: .address(MACAddress(rawValue: 0xAA_BB_CC_00_11_44))))
            // In the lab 20 s, then 15 s by the vase, out of any room.
            for (seconds, x, y, room) in [(0.0, 1.0, 1.0, lab.id), (20, 1, 1, lab.id), (30, 20, 20.5, nil), (45, 20.5, 20, nil)] as [(Double, Double, Double, Int64?)] {
                _ = try await database.storeTagPosition(TagPosition(
                    id: 0, tagID: badge.id, time: Readings.start.addingTimeInterval(seconds), floorID: floor.id, x: x, y: y,
                    roomID: room, accuracyMetres: 1, method: "fused", scannersHeard: 3
                ))
            }
            let dashboard = try await database.dashboard(since: Readings.start.addingTimeInterval(-1), now: Readings.start.addingTimeInterval(61))
            #expect(dashboard.dwell.rooms == [PlaceDwell(id: lab.id, name: "Lab", floorID: floor.id, visits: 2, seconds: 50)])
            #expect(dashboard.dwell.items == [PlaceDwell(id: vase.id, name: "Vase", floorID: floor.id, visits: 1, seconds: 15)])
            let later = try await database.dashboard(since: Readings.start.addingTimeInterval(31), now: Readings.start.addingTimeInterval(61))
            #expect(later.dwell.rooms.isEmpty)
            #expect(later.dwell.items == [PlaceDwell(id: vase.id, name: "Vase", floorID: floor.id, visits: 1, seconds: 0)])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func emittersAreSummedWithWhereTheyAreLoudestAndPagedByKey(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            #expect(try await database.emitters(afterKey: nil, limit: 10).items.isEmpty)
            let (lab, a, b) = try await Self.surveyed(in: database)
            let beacon = try await database.createBeacon(Beacons.new(floorID: lab.floorID, minor: 2))

            let all = try await database.emitters(afterKey: nil, limit: 10)
            #expect(all.nextKey == nil && all.items.count == 2)
            let wifi = try #require(all.items.first)
            #expect(wifi.emitter == "ap:02:00:00:00:01:00" && wifi.kind == .wifi && wifi.bssid == "02:00:00:00:01:00")
            #expect(wifi.ssid == "floorscan-lab" && wifi.beaconID == nil && wifi.uuid == nil)
            #expect(wifi.readings == 3 && abs(wifi.meanRSSI - (-190.0 / 3)) < 1e-9 && wifi.maxRSSI == -50 && wifi.locations == 2)
            #expect(wifi.firstSeen == Readings.start && wifi.lastSeen == Readings.start.addingTimeInterval(1))
            #expect(wifi.strongestAt == EmitterPlace(locationID: a.id, roomID: lab.id, floorID: lab.floorID, meanRSSI: -50, readings: 1))
            let ble = try #require(all.items.last)
            #expect(ble.emitter == "beacon:\(BeaconID(uuid: Readings.beaconUUID, major: 1, minor: 2))" && ble.kind == .ble)
            #expect(ble.uuid == Readings.beaconUUID && ble.major == 1 && ble.minor == 2 && ble.beaconID == beacon.id && ble.bssid == nil)
            #expect(ble.readings == 2 && ble.meanRSSI == -65 && ble.maxRSSI == -60 && ble.locations == 2)
            #expect(ble.strongestAt == EmitterPlace(locationID: b.id, roomID: lab.id, floorID: lab.floorID, meanRSSI: -60, readings: 1))

            let first = try await database.emitters(afterKey: nil, limit: 1)
            #expect(first.items == [wifi] && first.nextKey == wifi.emitter)
            let second = try await database.emitters(afterKey: first.nextKey, limit: 1)
            #expect(second.items == [ble] && second.nextKey == nil)
        }
    }

    /// A lab with spots a (1, 1) and b (5, 1), surveyed by the default scanner: at a, an access
    /// point at -50 and the beacon at -70; at b, the access point at -80 and -60 and the beacon
    /// at -60 (a second later).
    static func surveyed(in database: AppDatabase) async throws -> (Room, Location, Location) {
        let floor = try await database.createFloor(NewFloor(name: "Ground"))
        let lab = try await database.createRoom(NewRoom(floorID: floor.id, name: "Lab"))
        let a = try await database.createLocation(NewLocation(roomID: lab.id, x: 1, y: 1))
        let b = try await database.createLocation(NewLocation(roomID: lab.id, x: 5, y: 1))
        for (spot, readings) in [
            (a, [Readings.wifi(rssi: -50), Readings.ble(rssi: -70)]),
            (b, [Readings.wifi(rssi: -80, at: 1), Readings.wifi(scan: 1, rssi: -60, at: 1), Readings.ble(rssi: -60, at: 1)]),
        ] {
            let on = try await database.updateSwitch(
                of: .default, with: SwitchPatch(scanning: true, mode: .survey, locationID: .set(spot.id), storeData: true), at: Readings.start
            ).scanSwitch
            #expect(try await database.ingest(Readings.batch(readings, revision: on.revision), at: Readings.start).receipt.stored == readings.count)
        }
        return (lab, a, b)
    }
}
