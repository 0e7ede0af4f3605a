import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Walk surveys over real HTTP on loopback and a real SQLite file: each scan cycle becomes a point
/// of the walked segment placed by its time, with the scanner's clock minutes off switchd's.
@Suite struct WalkSurveyTests {
    /// switchd's time when the walk starts; the scanner's clock is two minutes behind.
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    static let scannerBehind: TimeInterval = 120

    /// A cycle's readings, taken `at` seconds after the walk started by switchd's clock (stamped
    /// by the scanner's): two access points, one second apart from `at − 0.5` to `at + 0.5`.
    static func cycle(_ scan: Int, at seconds: TimeInterval) -> [ScanContract.Measurement] {
        let taken = start.addingTimeInterval(seconds - scannerBehind)
        return [(0x02_00_00_00_01_00, -60, -0.5), (0x02_00_00_00_02_00, -70 - scan, 0.5)].map { bssid, rssi, shift in
            ScanContract.Measurement(
                time: taken.addingTimeInterval(shift), rssi: rssi, scan: scan,
                observation: .wifi(WiFiObservation(bssid: BSSID(rawValue: UInt64(bssid)), ssid: "floorscan-lab", frequencyMHz: 2412))
            )
        }
    }

    struct Corridor {
        var floor: Floor
        var from: Location
        var to: Location

        static func make(_ client: some TestClientProtocol) async throws -> Corridor {
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            let room = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: floor.id, name: "Corridor"), as: Room.self)
            let from = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: room.id, x: 0, y: 0), as: Location.self)
            let to = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: room.id, x: 8, y: 6), as: Location.self)
            return Corridor(floor: floor, from: from, to: to)
        }
    }

    @Test func eachCycleIsAPointOfTheSegmentPlacedByItsTime() async throws {
        let clock = SetWallClock(Self.start)
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database, wallClock: clock.wallClock).test(.live) { client in
                let corridor = try await Corridor.make(client)
                let walk = try await client.expect(
                    .created, .post, "/v1/walks", json: NewWalk(scannerID: .default, fromLocationID: corridor.from.id, toLocationID: corridor.to.id),
                    as: Walk.self
                )
                #expect(walk.state == .walking && walk.points == 0 && walk.startedAt == Self.start)
                #expect((walk.startX, walk.startY, walk.endX, walk.endY) == (0, 0, 8, 6))
                let surveying = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
                #expect(surveying.scanning && surveying.mode == .survey && surveying.locationID == corridor.from.id)
                #expect(surveying.revision == walk.switchRevision)

                // Cycle 0 was taken a second before the start (standing), 1–3 on the way. Each batch
                // is received as its newest reading is taken: the scanner's clock is read as
                // exactly two minutes behind.
                clock.set(Self.start.addingTimeInterval(5.5))
                let cycles = Self.cycle(0, at: -1) + Self.cycle(1, at: 2.5) + Self.cycle(2, at: 5)
                _ = try await client.uploadNew(Readings.batch(cycles, revision: walk.switchRevision))
                let walking = try await client.expect(.ok, get: "/v1/radiomap", as: RadioMap.self)
                #expect(walking.locations.allSatisfy { $0.scans.isEmpty }, "a walk under way is not in the map")

                clock.set(Self.start.addingTimeInterval(9.5))
                _ = try await client.uploadNew(Readings.batch(Self.cycle(3, at: 9), revision: walk.switchRevision))
                clock.set(Self.start.addingTimeInterval(10))
                let arrived = try await client.expect(.ok, .post, "/v1/walks/\(walk.id)/arrived", json: [String: String](), as: Walk.self)
                #expect(arrived.state == .done && arrived.arrivedAt == Self.start.addingTimeInterval(10))
                #expect(arrived.points == 3 && arrived.droppedCycles == 1)
                let off = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
                #expect(!off.scanning && off.revision == walk.switchRevision + 1)

                // Uploaded after the arrival: cycle 4 still on the way, cycle 5 taken standing at the end.
                clock.set(Self.start.addingTimeInterval(14))
                _ = try await client.uploadNew(Readings.batch(Self.cycle(4, at: 9.8) + Self.cycle(5, at: 12), revision: walk.switchRevision))

                let done = try await client.expect(.ok, get: "/v1/walks/\(walk.id)", as: Walk.self)
                #expect(done.points == 4 && done.droppedCycles == 2)
                let points = try await client.expect(.ok, get: "/v1/locations?floor=\(corridor.floor.id)", as: [Location].self)
                    .filter { $0.walkID == walk.id }
                let expected: [(x: Double, y: Double)] = [(2, 1.5), (4, 3), (7.2, 5.4), (7.84, 5.88)]
                #expect(points.count == expected.count)
                for (point, place) in zip(points, expected) {
                    #expect(abs(point.x - place.x) < 1e-9 && abs(point.y - place.y) < 1e-9, "\(point) at \(place)")
                    #expect(point.roomID == corridor.from.roomID)
                    let readings = try await client.expect(.ok, get: "/v1/measurements?location=\(point.id)", as: Page<StoredMeasurement>.self)
                    #expect(readings.items.count == 2, "both readings of the cycle moved to its point")
                }

                let map = try await client.expect(.ok, get: "/v1/radiomap", as: RadioMap.self)
                let mapped = Dictionary(uniqueKeysWithValues: map.locations.map { ($0.locationID, $0) })
                for point in points {
                    #expect(mapped[point.id]?.scans.count == 1, "one sample per walk point")
                    #expect(mapped[point.id]?.x == point.x && mapped[point.id]?.y == point.y)
                }
                #expect(mapped[corridor.from.id]?.scans.isEmpty == true, "nothing stays at the start")
                let kept = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self).items
                #expect(kept.count == 12, "dropped cycles keep their readings, outside the survey")
                #expect(kept.filter { $0.locationID == nil }.count == 4)
            }
        }
    }

    @Test func badWalksAreRefusedWithNothingStored() async throws {
        let clock = SetWallClock(Self.start)
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database, wallClock: clock.wallClock).test(.live) { client in
                let corridor = try await Corridor.make(client)
                let room = corridor.from.roomID
                let same = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: room, x: 0, y: 0), as: Location.self)
                let far = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: room, x: 40, y: 0), as: Location.self)
                let upstairs = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "First", level: 1), as: Floor.self)
                let landing = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: upstairs.id, name: "Landing"), as: Room.self)
                let above = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: landing.id, x: 1, y: 1), as: Location.self)
                let before = try await StoredCounts(database)
                let from = corridor.from.id
                for (body, status, field) in [
                    (#"{"scannerID": "default", "fromLocationID": \#(from), "toLocationID": \#(from)}"#, HTTPResponse.Status.unprocessableContent, "toLocationID"),
                    (#"{"scannerID": "default", "fromLocationID": \#(from), "toLocationID": \#(same.id)}"#, .unprocessableContent, "toLocationID"),
                    (#"{"scannerID": "default", "fromLocationID": \#(from), "toLocationID": \#(far.id)}"#, .unprocessableContent, "toLocationID"),
                    (#"{"scannerID": "default", "fromLocationID": \#(from), "toLocationID": \#(above.id)}"#, .unprocessableContent, "toLocationID"),
                    (#"{"scannerID": "default", "fromLocationID": 999, "toLocationID": \#(from)}"#, .unprocessableContent, "fromLocationID"),
                    (#"{"scannerID": "default", "fromLocationID": \#(from)}"#, .unprocessableContent, "toLocationID"),
                ] {
                    let response = try await client.send(.post, "/v1/walks", text: body)
                    #expect(response.status == status, "\(body): \(String(buffer: response.body))")
                    #expect(try errorBody(response).field == field, "\(body)")
                }
                let unknownScanner = NewWalk(scannerID: try ScannerID("nobody"), fromLocationID: from, toLocationID: corridor.to.id)
                #expect(try await client.send(.post, "/v1/walks", json: unknownScanner).status == .notFound)
                #expect(try await StoredCounts(database) == before)
                #expect(try await client.expect(.ok, get: "/v1/walks", as: [Walk].self).isEmpty)

                let walk = try await client.expect(
                    .created, .post, "/v1/walks", json: NewWalk(scannerID: .default, fromLocationID: from, toLocationID: corridor.to.id), as: Walk.self
                )
                let started = try await StoredCounts(database)
                let overlapping = try await client.send(.post, "/v1/walks", json: NewWalk(scannerID: .default, fromLocationID: corridor.to.id, toLocationID: from))
                #expect(overlapping.status == .conflict, "one walk at a time per scanner")
                #expect(try await client.send(.post, "/v1/walks/\(walk.id)/arrived", text: "{}").status == .conflict, "an arrival no later than the start")
                #expect(try await client.send(.post, "/v1/walks/999/arrived", text: "{}").status == .notFound)
                #expect(try await StoredCounts(database) == started)
                #expect(try await client.expect(.ok, get: "/v1/walks/\(walk.id)", as: Walk.self).state == .walking)

                clock.set(Self.start.addingTimeInterval(4))
                #expect(try await client.send(.post, "/v1/walks/\(walk.id)/arrived", text: "{}").status == .ok)
                #expect(try await client.send(.post, "/v1/walks/\(walk.id)/arrived", text: "{}").status == .conflict, "it arrived already")
            }
        }
    }

    @Test func deletingAWalkTakesItsPointsAndReadingsAndEndsOneUnderWay() async throws {
        let clock = SetWallClock(Self.start)
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database, wallClock: clock.wallClock).test(.live) { client in
                let corridor = try await Corridor.make(client)
                let new = NewWalk(scannerID: .default, fromLocationID: corridor.from.id, toLocationID: corridor.to.id)
                let walk = try await client.expect(.created, .post, "/v1/walks", json: new, as: Walk.self)
                clock.set(Self.start.addingTimeInterval(6))
                _ = try await client.uploadNew(Readings.batch(Self.cycle(0, at: 2) + Self.cycle(1, at: 5), revision: walk.switchRevision))
                _ = try await client.expect(.ok, .post, "/v1/walks/\(walk.id)/arrived", json: [String: String](), as: Walk.self)
                #expect(try await client.expect(.ok, get: "/v1/locations", as: [Location].self).count == 4)

                #expect(try await client.send(.delete, "/v1/walks/\(walk.id)", text: "").status == .noContent)
                #expect(try await client.expect(.ok, get: "/v1/locations", as: [Location].self).map(\.id) == [corridor.from.id, corridor.to.id])
                #expect(try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self).items.isEmpty)
                #expect(try await client.get("/v1/walks/\(walk.id)").status == .notFound)
                let late = try await client.upload(Readings.batch(Self.cycle(2, at: 5.5), revision: walk.switchRevision))
                #expect(late.status == .conflict, "a late batch of a deleted walk is refused, not stored at its start")
                #expect(try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self).items.isEmpty)

                // A walk started while the scanner surveys elsewhere gets a revision of its own:
                // the earlier survey's readings stay where they were taken.
                clock.set(Self.start.addingTimeInterval(20))
                let surveying = try await client.startSurvey(at: corridor.to.id)
                _ = try await client.uploadNew(Readings.batch(Self.cycle(0, at: 19), revision: surveying.revision))
                let underWay = try await client.expect(.created, .post, "/v1/walks", json: new, as: Walk.self)
                #expect(underWay.switchRevision == surveying.revision + 1, "one revision for the walk")
                clock.set(Self.start.addingTimeInterval(23))
                _ = try await client.uploadNew(Readings.batch(Self.cycle(0, at: 22), revision: underWay.switchRevision))
                #expect(try await client.send(.delete, "/v1/walks/\(underWay.id)", text: "").status == .noContent)
                #expect(try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self).scanning == false)
                let left = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self).items
                #expect(left.map(\.locationID) == [corridor.to.id, corridor.to.id], "only the earlier survey's readings")
                #expect(try await client.expect(.ok, get: "/v1/walks", as: [Walk].self).isEmpty)
            }
        }
    }

    /// Starting a walk is one admin action and writes one switch revision, whether the scanner
    /// was off or already surveyed the walk's start with the walk's settings (the walk still
    /// gets a revision of its own, so no earlier reading counts as the walk's).
    @Test func startingAWalkWritesOneSwitchRevision() async throws {
        let clock = SetWallClock(Self.start)
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database, wallClock: clock.wallClock).test(.live) { client in
                let corridor = try await Corridor.make(client)
                let new = NewWalk(scannerID: .default, fromLocationID: corridor.from.id, toLocationID: corridor.to.id)
                let revisions = { @Sendable in
                    try await database.read { db in
                        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM switch_revision WHERE scanner_id = ?", arguments: ["default"]) ?? 0
                    }
                }

                let off = try await revisions()
                let first = try await client.expect(.created, .post, "/v1/walks", json: new, as: Walk.self)
                #expect(try await revisions() == off + 1, "from off")
                clock.set(Self.start.addingTimeInterval(6))
                _ = try await client.expect(.ok, .post, "/v1/walks/\(first.id)/arrived", json: [String: String](), as: Walk.self)

                clock.set(Self.start.addingTimeInterval(10))
                let surveying = try await client.startSurvey(at: corridor.from.id)
                let before = try await revisions()
                let second = try await client.expect(.created, .post, "/v1/walks", json: new, as: Walk.self)
                #expect(try await revisions() == before + 1, "from surveying the start already")
                #expect(second.switchRevision == surveying.revision + 1)
                let now = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
                #expect(now.revision == second.switchRevision && now.scanning && now.scansCompleted == 0)
            }
        }
    }

    /// A deleted scanner's finished walk is survey material and stays, points and readings; its
    /// walk under way goes, with the readings it took so far, and does not stop the ID walking
    /// again once registered anew.
    static let walker = try! ScannerID("pi-walker")

    @Test func deletingAScannerKeepsItsFinishedWalksAndEndsOneUnderWay() async throws {
        let clock = SetWallClock(Self.start)
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database, wallClock: clock.wallClock).test(.live) { client in
                let corridor = try await Corridor.make(client)
                _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: Self.walker), as: ScanContract.Scanner.self)
                let new = NewWalk(scannerID: Self.walker, fromLocationID: corridor.from.id, toLocationID: corridor.to.id)
                let done = try await client.expect(.created, .post, "/v1/walks", json: new, as: Walk.self)
                clock.set(Self.start.addingTimeInterval(6))
                _ = try await client.uploadNew(Readings.batch(Self.cycle(0, at: 2) + Self.cycle(1, at: 5), revision: done.switchRevision, scanner: Self.walker))
                _ = try await client.expect(.ok, .post, "/v1/walks/\(done.id)/arrived", json: [String: String](), as: Walk.self)
                clock.set(Self.start.addingTimeInterval(20))
                let underWay = try await client.expect(.created, .post, "/v1/walks", json: new, as: Walk.self)
                clock.set(Self.start.addingTimeInterval(23))
                _ = try await client.uploadNew(Readings.batch(Self.cycle(0, at: 22), revision: underWay.switchRevision, scanner: Self.walker))
                let mapBefore = try await client.expect(.ok, get: "/v1/radiomap", as: RadioMap.self)

                #expect(try await client.send(.delete, "/v1/scanners/pi-walker", text: "").status == .noContent)
                #expect(try await client.expect(.ok, get: "/v1/walks", as: [Walk].self).map(\.id) == [done.id], "only the walk under way went")
                let readings = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self).items
                #expect(readings.count == 4, "the finished walk's readings stay; the walk under way's went")
                #expect(try await client.expect(.ok, get: "/v1/radiomap", as: RadioMap.self) == mapBefore)

                _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: Self.walker), as: ScanContract.Scanner.self)
                let again = try await client.expect(.created, .post, "/v1/walks", json: new, as: Walk.self)
                #expect(again.switchRevision > underWay.switchRevision)
            }
        }
    }
}
