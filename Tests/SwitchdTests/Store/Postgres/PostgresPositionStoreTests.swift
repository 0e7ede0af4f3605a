import Foundation
import ScanContract
import Testing
@testable import SwitchdStore

/// Positions (posted, listed as a feed, each scanner's latest) with the same assertions on
/// SQLite and on a real PostgreSQL server (docs/scale-out.md): the same checks and errors with
/// nothing stored, the same filters and order, coordinates on a geo-referenced floor, and a feed
/// end that never goes down when a floor's positions are deleted with it.
@Suite("Positions on both databases", postgresInstalled, .postgresServer)
struct PostgresPositionStoreTests {
    static let now = Date(milliseconds: 1_790_000_100_000)

    @Test(arguments: StoreBackend.allCases)
    func positionsAreCheckedStoredListedAndTheLatestFound(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (floor, upstairs) = try await PostgresSurveyStoreTests.twoFloors(in: database)
            let (hall, _, landing) = try await PostgresSurveyStoreTests.threeRooms(on: floor, upstairs, in: database)
            let desk = try await database.createLocation(NewLocation(roomID: hall.id, name: "Desk", x: 2, y: 3))
            let other = try ScannerID("kitchen")
            _ = try await database.createScanner(NewScanner(id: other), at: Self.now)
            #expect(try await database.endOfPositionFeed() == 0)

            let sighting = BeaconSighting(
                beacon: BeaconID(uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 2),
                rssi: -61.5, samples: 3, distanceMetres: 1.2, proximity: .near
            )
            let first = try await database.createPosition(Self.position(on: floor, at: 0, room: hall.id, location: desk.id, beacons: [sighting]))
            #expect(first == Position(id: first.id, Self.position(on: floor, at: 0, room: hall.id, location: desk.id, beacons: [sighting])))
            let second = try await database.createPosition(Self.position(of: other, on: floor, at: 5))
            let third = try await database.createPosition(Self.position(on: upstairs, at: 10))
            // Two at one time: the one stored last is the latest.
            let fourth = try await database.createPosition(Self.position(on: upstairs, at: 10, x: 9))
            #expect([first.id, second.id, third.id, fourth.id] == [first.id, first.id + 1, first.id + 2, first.id + 3])

            // Refused, nothing stored.
            let refusals: [(NewPosition, StoreError)] = [
                (Self.position(of: try ScannerID("nobody"), on: floor, at: 1), .notFound("no scanner nobody")),
                (Self.position(on: floor, at: 1, floorID: 999), .invalidField(ValidationError(field: "floor", reason: "no floor 999"))),
                (Self.position(on: floor, at: 1, building: "annex"), .invalidField(ValidationError(
                    field: "building", reason: "floor \(floor.id) is in building \"main\", not \"annex\""
                ))),
                (Self.position(on: floor, at: 1, room: 999), .invalidField(ValidationError(field: "roomID", reason: "no room 999"))),
                (Self.position(on: floor, at: 1, room: landing.id), .invalidField(ValidationError(
                    field: "roomID", reason: "room \(landing.id) is on floor \(upstairs.id), not floor \(floor.id)"
                ))),
                (Self.position(on: floor, at: 1, location: 999), .invalidField(ValidationError(
                    field: "nearestLocationID", reason: "no location 999"
                ))),
                (Self.position(on: upstairs, at: 1, location: desk.id), .invalidField(ValidationError(
                    field: "nearestLocationID", reason: "location \(desk.id) is on floor \(floor.id), not floor \(upstairs.id)"
                ))),
            ]
            for (new, error) in refusals {
                await #expect(throws: error) { try await database.createPosition(new) }
            }
            await #expect(throws: StoreError.self) { try await database.createPosition(Self.position(on: floor, at: 1, accuracy: -1)) }
            #expect(try await database.endOfPositionFeed() == fourth.id)

            let all = try await database.positions(matching: PositionFilter(), after: 0, limit: 10)
            #expect(all.items == [first, second, third, fourth] && all.endOfFeed == fourth.id)
            let paged = try await database.positions(matching: PositionFilter(), after: first.id, limit: 2)
            #expect(paged.items == [second, third] && paged.endOfFeed == fourth.id)
            let mine = try await database.positions(matching: PositionFilter(scannerID: .default), after: 0, limit: 10)
            #expect(mine.items == [first, third, fourth])
            let window = PositionFilter(since: Self.now.addingTimeInterval(5), until: Self.now.addingTimeInterval(10))
            #expect(try await database.positions(matching: window, after: 0, limit: 10).items == [second])

            #expect(try await database.latestPositions(of: nil) == [fourth, second])
            #expect(try await database.latestPositions(of: other) == [second])
            await #expect(throws: StoreError.notFound("no scanner nobody")) { try await database.latestPositions(of: try ScannerID("nobody")) }
            let quiet = try ScannerID("quiet")
            _ = try await database.createScanner(NewScanner(id: quiet), at: Self.now)
            await #expect(throws: StoreError.notFound("scanner quiet has posted no position yet")) { try await database.latestPositions(of: quiet) }
        }
    }

    /// A geo-referenced floor places its positions on Earth; deleting the floor deletes its
    /// positions (the newest among them) and leaves the feed's end where it was.
    @Test(arguments: StoreBackend.allCases)
    func positionsArePlacedOnEarthAndTheFeedEndOutlivesAFloorDeleted(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (floor, upstairs) = try await PostgresSurveyStoreTests.twoFloors(in: database)
            _ = try await database.setGeoreference(ofFloor: floor.id, PostgresSurveyStoreTests.controlPoints)
            let kept = try await database.createPosition(Self.position(on: upstairs, at: 0))
            #expect(kept.latitude == nil && kept.longitude == nil)
            let placed = try await database.createPosition(Self.position(on: floor, at: 1))
            let coordinates = try #require(try await database.coordinates(floorID: floor.id, x: placed.x, y: placed.y))
            #expect(placed.latitude == coordinates.latitude && placed.longitude == coordinates.longitude)
            #expect(try await database.positions(matching: PositionFilter(), after: kept.id, limit: 10).items == [placed])

            _ = try await database.deleteFloor(floor.id, at: Self.now)
            let remaining = try await database.positions(matching: PositionFilter(), after: 0, limit: 10)
            #expect(remaining.items == [kept] && remaining.endOfFeed == placed.id)
            #expect(try await database.endOfPositionFeed() == placed.id)
            let next = try await database.createPosition(Self.position(on: upstairs, at: 2))
            #expect(next.id > placed.id)
        }
    }

    /// A position of `scanner` on `floor` (its building unless `building`), `seconds` after
    /// ``now``.
    static func position(
        of scanner: ScannerID = .default, on floor: Floor, at seconds: Double, floorID: Int64? = nil, building: String? = nil,
        x: Double = 1.5, room: Int64? = nil, location: Int64? = nil, accuracy: Double = 2.5, beacons: [BeaconSighting]? = nil
    ) -> NewPosition {
        NewPosition(
            scannerID: scanner, time: now.addingTimeInterval(seconds), building: building ?? floor.building, floor: floorID ?? floor.id,
            x: x, y: 2.25, roomID: room, nearestLocationID: location, accuracyMetres: accuracy, method: "knn", beacons: beacons
        )
    }
}
