import Foundation
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `GET /v1/dashboard` over real HTTP on loopback: counts, recent activity, anonymous dwell.
@Suite struct DashboardTests {
    @Test func countsActivityAndDwellPerRoomAndItem() async throws {
        try await makeApp(try .inMemory()).test(.live) { client in
            let spot = try await SurveySpot.make(client, name: "Lab")
            let cafe = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: spot.floor.id, name: "Café"), as: Room.self)
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: try ScannerID("pi-2")), as: Scanner.self)
            // One survey upload: 2 readings at the location, so it counts as surveyed.
            let on = try await client.startSurvey(at: spot.location.id)
            _ = try await client.uploadNew(Readings.batch([Readings.wifi(), Readings.ble()], revision: on.revision))
            // Then locating without storing: its batches keep nothing and are no news in `recent`.
            let locating = try await client.patchSwitch(SwitchPatch(scanning: true, mode: .locate, storeData: false))
            _ = try await client.uploadNew(Readings.batch([Readings.wifi(scan: 1)], revision: locating.revision))
            // An item (a beacon with content) at (20, 20) and a plain beacon at (1, 2).
            var item = Beacons.new(floorID: spot.floor.id, minor: 1, x: 20, y: 20)
            item.metadata = ["name": "Vase", "content.en": "A vase", "content.fr": "Un vase"]
            let vase = try await client.expect(.created, .post, "/v1/beacons", json: item, as: Beacon.self)
            _ = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: spot.floor.id, minor: 2), as: Beacon.self)
            // default: 30 s in the lab (3 positions), then 20 s at the vase in the café;
            // pi-2: 10 s in the lab. Gaps are 10 s, under the 120 s default.
            let posts: [NewPosition] = [
                Positions.new(floor: spot.floor, x: 1, y: 1, at: 0, roomID: spot.room.id),
                Positions.new(floor: spot.floor, x: 1, y: 1, at: 10, roomID: spot.room.id),
                Positions.new(floor: spot.floor, x: 1, y: 1, at: 30, roomID: spot.room.id),
                Positions.new(floor: spot.floor, x: 20, y: 21, at: 40, roomID: cafe.id),
                Positions.new(floor: spot.floor, x: 21, y: 20, at: 60, roomID: cafe.id),
                Positions.new(scanner: try ScannerID("pi-2"), floor: spot.floor, x: 2, y: 1, at: 5, roomID: spot.room.id),
                Positions.new(scanner: try ScannerID("pi-2"), floor: spot.floor, x: 2, y: 1, at: 15, roomID: spot.room.id),
            ]
            for post in posts {
                _ = try await client.expect(.created, .post, "/v1/positions", json: post, as: Position.self)
            }
            let since = JSONCoding.formatDate(Readings.start)
            let dashboard = try await client.expect(.ok, get: "/v1/dashboard?since=\(since)", as: Dashboard.self)
            #expect(dashboard.since == Readings.start)
            #expect(dashboard.counts == DashboardCounts(
                scannersOnline: 1, scanners: 2, readingsToday: 2, positionsToday: 7, locationsSurveyed: 1, locations: 1
            ))
            #expect(dashboard.dwell.rooms == [
                PlaceDwell(id: spot.room.id, name: "Lab", floorID: spot.floor.id, visits: 2, seconds: 40),
                PlaceDwell(id: cafe.id, name: "Café", floorID: spot.floor.id, visits: 1, seconds: 20),
            ])
            #expect(dashboard.dwell.items == [PlaceDwell(id: vase.id, name: "Vase", floorID: spot.floor.id, visits: 1, seconds: 20)])
            // Newest first (two made within one millisecond may come either way).
            #expect(Set(dashboard.recent.map(\.summary)) == [
                "switch on: locate", "stored 2 readings (survey)", "switch on: survey at location \(spot.location.id)",
            ])
            #expect(zip(dashboard.recent, dashboard.recent.dropFirst()).allSatisfy { $0.time >= $1.time })
            #expect(dashboard.recent.count == 3)

            // Anonymous: no scanner ID anywhere in the dwell figures.
            let dwellText = String(decoding: try JSONCoding.encoder().encode(dashboard.dwell), as: UTF8.self)
            #expect(!dwellText.contains("pi-2") && !dwellText.contains("default") && !dwellText.contains("scanner"))

            // Without since: today (UTC) only; the positions of 2026-09 are long past.
            let today = try await client.expect(.ok, get: "/v1/dashboard", as: Dashboard.self)
            #expect(today.counts.positionsToday == 0 && today.dwell.rooms.isEmpty)
            #expect(try await client.get("/v1/dashboard?since=yesterday").status == .unprocessableContent)
            #expect(try await client.get("/v1/dashboard?gap=-1").status == .unprocessableContent)
        }
    }
}
