import Foundation
import ScanContract
import Testing
@testable import SwitchdStore

/// Walk surveys with the same assertions on SQLite and on a real PostgreSQL server
/// (docs/scale-out.md): starting one sets the switch to survey its start under a revision of
/// its own, refusals change nothing, arriving places each cycle on the segment by its time
/// (cycles uploaded later too, through ingest), and deleting a walk takes its points and readings
/// and ends one under way, keeping the measurement feed's end.
@Suite("Walk surveys on both databases", postgresInstalled, .postgresServer)
struct PostgresWalkStoreTests {
    static let start = WalkSurveyTests.start

    @Test(arguments: StoreBackend.allCases)
    func aWalkIsStartedRefusedWhenItCannotBeAndItsCyclesPlacedByTime(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (floor, from, to) = try await Self.corridor(in: database)
            let room = from.roomID
            let far = try await database.createLocation(NewLocation(roomID: room, x: 40, y: 0))
            let upstairs = try await database.createFloor(NewFloor(name: "First", level: 1))
            let landing = try await database.createRoom(NewRoom(floorID: upstairs.id, name: "Landing"))
            let above = try await database.createLocation(NewLocation(roomID: landing.id, x: 1, y: 1))
            let refusals: [(NewWalk, StoreError)] = [
                (NewWalk(scannerID: try ScannerID("nobody"), fromLocationID: from.id, toLocationID: to.id), .notFound("no scanner nobody")),
                (NewWalk(scannerID: .default, fromLocationID: 999, toLocationID: to.id), .invalidField(ValidationError(
                    field: "fromLocationID", reason: "no location 999"
                ))),
                (NewWalk(scannerID: .default, fromLocationID: from.id, toLocationID: above.id), .invalidField(ValidationError(
                    field: "toLocationID",
                    reason: "location \(above.id) is on floor \(upstairs.id); the walk starts on floor \(floor.id), and a walk stays on one floor"
                ))),
                (NewWalk(scannerID: .default, fromLocationID: from.id, toLocationID: far.id), .invalidField(ValidationError(
                    field: "toLocationID", reason: "the segment is 40.0 m; a walk covers at most \(Int(NewWalk.maximumLength)) m, so split it"
                ))),
            ]
            for (new, error) in refusals {
                await #expect(throws: error) { try await database.startWalk(new, at: Self.start) }
            }
            #expect(try await database.walks(onFloor: nil).isEmpty)
            #expect(try await database.currentSwitch(of: .default).revision == 1)

            let started = try await database.startWalk(NewWalk(scannerID: .default, fromLocationID: from.id, toLocationID: to.id), at: Self.start)
            let walk = try #require(started.walk)
            #expect(walk.state == .walking && walk.points == 0 && walk.startedAt == Self.start && walk.floorID == floor.id)
            #expect((walk.startX, walk.startY, walk.endX, walk.endY) == (0, 0, 8, 6))
            let surveying = try #require(started.switchChanged)
            #expect(surveying.scanning && surveying.mode == .survey && surveying.locationID == from.id && surveying.revision == walk.switchRevision)
            #expect(try await database.walk(walk.id) == walk)
            #expect(try await database.walks(onFloor: floor.id) == [walk])
            #expect(try await database.walks(onFloor: upstairs.id).isEmpty)
            await #expect(throws: StoreError.notFound("no floor 999")) { try await database.walks(onFloor: 999) }
            await #expect(throws: StoreError.notFound("no walk 999")) { try await database.walk(999) }
            await #expect(throws: StoreError.conflict("scanner default is walking walk \(walk.id); it must arrive or be deleted first")) {
                try await database.startWalk(NewWalk(scannerID: .default, fromLocationID: to.id, toLocationID: from.id), at: Self.start)
            }
            await #expect(throws: StoreError.self) { try await database.arrive(walk.id, at: Self.start) }
            await #expect(throws: StoreError.notFound("no walk 999")) { try await database.arrive(999, at: Self.start) }

            // As WalkSurveyTests: cycle 0 before the start, 1-3 on the way, the scanner's clock two
            // minutes behind, each batch received as its newest reading is taken.
            let cycles = WalkSurveyTests.cycle(0, at: -1) + WalkSurveyTests.cycle(1, at: 2.5) + WalkSurveyTests.cycle(2, at: 5)
            _ = try await database.ingest(Readings.batch(cycles, revision: walk.switchRevision), at: Self.start.addingTimeInterval(5.5))
            _ = try await database.ingest(
                Readings.batch(WalkSurveyTests.cycle(3, at: 9), revision: walk.switchRevision), at: Self.start.addingTimeInterval(9.5)
            )
            let arrival = try await database.arrive(walk.id, at: Self.start.addingTimeInterval(10))
            let arrived = try #require(arrival.walk)
            #expect(arrived.state == .done && arrived.arrivedAt == Self.start.addingTimeInterval(10))
            #expect(arrived.points == 3 && arrived.droppedCycles == 1)
            let off = try #require(arrival.switchChanged)
            #expect(!off.scanning && off.revision == walk.switchRevision + 1)
            await #expect(throws: StoreError.conflict("walk \(walk.id) already arrived")) {
                try await database.arrive(walk.id, at: Self.start.addingTimeInterval(11))
            }

            // Uploaded after the arrival: placed by ingest.
            _ = try await database.ingest(
                Readings.batch(WalkSurveyTests.cycle(4, at: 9.8) + WalkSurveyTests.cycle(5, at: 12), revision: walk.switchRevision),
                at: Self.start.addingTimeInterval(14)
            )
            let done = try await database.walk(walk.id)
            #expect(done.points == 4 && done.droppedCycles == 2)
            let points = try await database.locations(inRoom: nil, onFloor: floor.id).filter { $0.walkID == walk.id }
            let expected: [(x: Double, y: Double)] = [(2, 1.5), (4, 3), (7.2, 5.4), (7.84, 5.88)]
            #expect(points.count == expected.count)
            for (point, place) in zip(points, expected) {
                #expect(abs(point.x - place.x) < 1e-9 && abs(point.y - place.y) < 1e-9, "\(point) at \(place)")
                let readings = try await database.measurements(matching: MeasurementFilter(locationID: point.id), after: 0, limit: 10)
                #expect(readings.items.count == 2, "both readings of the cycle moved to its point")
            }
            let kept = try await database.measurements(matching: MeasurementFilter(), after: 0, limit: 100).items
            #expect(kept.count == 12 && kept.filter { $0.locationID == nil }.count == 4)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func deletingAWalkTakesItsPointsAndReadingsEndsOneUnderWayAndKeepsTheFeedEnd(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (_, from, to) = try await Self.corridor(in: database)
            let new = NewWalk(scannerID: .default, fromLocationID: from.id, toLocationID: to.id)
            let walk = try #require(try await database.startWalk(new, at: Self.start).walk)
            _ = try await database.ingest(
                Readings.batch(WalkSurveyTests.cycle(0, at: 2) + WalkSurveyTests.cycle(1, at: 5), revision: walk.switchRevision),
                at: Self.start.addingTimeInterval(6)
            )
            _ = try await database.arrive(walk.id, at: Self.start.addingTimeInterval(6))
            #expect(try await database.locations(inRoom: nil, onFloor: nil).count == 4)
            let end = try await database.endOfMeasurementFeed()

            let deleted = try await database.deleteWalk(walk.id, at: Self.start.addingTimeInterval(7))
            #expect(deleted.walk == nil && deleted.switchChanged == nil)
            #expect(try await database.locations(inRoom: nil, onFloor: nil).map(\.id) == [from.id, to.id])
            let none = try await database.measurements(matching: MeasurementFilter(), after: 0, limit: 10)
            #expect(none.items.isEmpty && none.endOfFeed == end)
            await #expect(throws: StoreError.notFound("no walk \(walk.id)")) { try await database.walk(walk.id) }
            await #expect(throws: StoreError.notFound("no walk \(walk.id)")) { try await database.deleteWalk(walk.id, at: Self.start) }
            await #expect(throws: StoreError.self) {
                try await database.ingest(Readings.batch(WalkSurveyTests.cycle(2, at: 5.5), revision: walk.switchRevision), at: Self.start)
            }

            // A walk under way loses the readings taken so far, and its switch is turned off.
            let underWay = try #require(try await database.startWalk(new, at: Self.start.addingTimeInterval(20)).walk)
            _ = try await database.ingest(
                Readings.batch(WalkSurveyTests.cycle(0, at: 22), revision: underWay.switchRevision), at: Self.start.addingTimeInterval(23)
            )
            let ended = try await database.deleteWalk(underWay.id, at: Self.start.addingTimeInterval(24))
            let off = try #require(ended.switchChanged)
            #expect(!off.scanning && off.revision == underWay.switchRevision + 1)
            #expect(try await database.currentSwitch(of: .default) == off)
            #expect(try await database.measurements(matching: MeasurementFilter(), after: 0, limit: 10).items.isEmpty)
            #expect(try await database.endOfMeasurementFeed() > end)
            #expect(try await database.walks(onFloor: nil).isEmpty)
        }
    }

    /// A floor with a corridor, and two locations in it 10 m apart: (0, 0) and (8, 6).
    static func corridor(in database: AppDatabase) async throws -> (Floor, Location, Location) {
        let floor = try await database.createFloor(NewFloor(name: "Ground"))
        let room = try await database.createRoom(NewRoom(floorID: floor.id, name: "Corridor"))
        let from = try await database.createLocation(NewLocation(roomID: room.id, x: 0, y: 0))
        let to = try await database.createLocation(NewLocation(roomID: room.id, x: 8, y: 6))
        return (floor, from, to)
    }
}
