import Foundation
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Rooms' outlines with the same assertions on SQLite and on a real PostgreSQL server
/// (docs/scale-out.md): set, replaced, read with the room, refused with nothing lost, deleted;
/// and the room a position and a tag's position are placed in follows the outline, not the
/// nearest location, through the outline cache, which a change empties.
@Suite("Room outlines on both databases", postgresInstalled, .postgresServer)
struct PostgresRoomOutlineStoreTests {
    static let now = Date(milliseconds: 1_790_000_100_000)
    static let office: [[Double]] = [[2, 3], [5, 3], [5, 6], [2, 6]]

    /// A floor with a hall and an office, neither outlined.
    static func hallAndOffice(in database: AppDatabase) async throws -> (Floor, Room, Room) {
        let floor = try await database.createFloor(NewFloor(name: "Ground"))
        let hall = try await database.createRoom(NewRoom(floorID: floor.id, name: "Hall"))
        return (floor, hall, try await database.createRoom(NewRoom(floorID: floor.id, name: "Office")))
    }

    @Test(arguments: StoreBackend.allCases)
    func outlinesAreSetReplacedReadWithTheRoomRefusedWithNothingLostAndDeleted(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (floor, hall, office) = try await Self.hallAndOffice(in: database)
            await #expect(throws: StoreError.notFound("room \(office.id) has no outline")) { try await database.roomOutline(office.id) }

            let drawn = try await database.setRoomOutline(office.id, to: RoomOutline(outline: Self.office))
            #expect(drawn == Room(id: office.id, floorID: floor.id, name: "Office", outline: Self.office))
            #expect(try await database.roomOutline(office.id) == RoomOutline(outline: Self.office))
            #expect(try await database.rooms(onFloor: floor.id) == [hall, drawn])
            #expect(try await database.rooms(onFloor: nil) == [hall, drawn])
            #expect(try await database.room(office.id) == drawn)

            // Replaced whole, by fewer corners.
            let triangle: [[Double]] = [[0, 0], [4, 0], [0, 4]]
            #expect(try await database.setRoomOutline(office.id, to: RoomOutline(outline: triangle)).outline == triangle)

            // Refused, naming the problem; the stored outline stays.
            let refused: [([[Double]], String)] = [
                ([[0, 0], [1, 0]], "needs 3 to 200 corners, got 2"),
                (Array(repeating: [0.0, 0.0], count: 201), "needs 3 to 200 corners, got 201"),
                ([[0, 0], [1, 0], [1]], "corner 2 must be [x, y], got 1 numbers"),
                ([[0, 0], [1, 0], [1, 200_000]], "corner 2 must be finite metres within ±100000, got 200000.0"),
                ([[0, 0], [2, 2], [2, 0], [0, 2]], "edges 0 and 2 cross: an outline must not intersect itself"),
                ([[0, 0], [1, 0], [1, 1], [0, 0]], "corners 0 and 3 are the same point (0.0, 0.0)"),
            ]
            for (outline, reason) in refused {
                await #expect(throws: StoreError.invalidField(ValidationError(field: "outline", reason: reason))) {
                    try await database.setRoomOutline(office.id, to: RoomOutline(outline: outline))
                }
            }
            #expect(try await database.roomOutline(office.id).outline == triangle)
            await #expect(throws: StoreError.notFound("no room 999")) {
                try await database.setRoomOutline(999, to: RoomOutline(outline: triangle))
            }

            // Deleted, twice (the second deletes nothing); an unknown room is 404.
            try await database.deleteRoomOutline(office.id)
            try await database.deleteRoomOutline(office.id)
            #expect(try await database.room(office.id).outline == nil)
            await #expect(throws: StoreError.notFound("no room 999")) { try await database.deleteRoomOutline(999) }

            // Deleting the room deletes its outline.
            _ = try await database.setRoomOutline(hall.id, to: RoomOutline(outline: triangle))
            _ = try await database.deleteRoom(hall.id, at: Self.now)
            #expect(try await database.roomOutlines(onFloor: floor.id).isEmpty)
        }
    }

    /// A hall whose one location sits in the middle of an office drawn inside it: the nearest
    /// location says hall, the outline says office, and the outline wins; outside every outline
    /// the nearest location decides. The cache, read before each change, follows every change.
    @Test(arguments: StoreBackend.allCases)
    func aPointsRoomFollowsTheOutlineThroughTheCache(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (floor, hall, office) = try await Self.hallAndOffice(in: database)
            _ = try await database.createLocation(NewLocation(roomID: hall.id, x: 3.5, y: 4.5))
            _ = try await database.createLocation(NewLocation(roomID: office.id, x: 20, y: 20))
            #expect(try await database.room(at: 3, 4, onFloor: floor.id) == hall.id, "no outline yet: the nearest location")
            #expect(database.outlineCache.outlines(onFloor: floor.id)?.isEmpty == true, "read once, kept")

            _ = try await database.setRoomOutline(office.id, to: RoomOutline(outline: Self.office))
            #expect(try await database.room(at: 3, 4, onFloor: floor.id) == office.id)
            #expect(try await database.room(at: 5, 6, onFloor: floor.id) == office.id, "on a corner")
            #expect(try await database.room(at: 5.01, 6, onFloor: floor.id) == hall.id, "just outside")
            #expect(try await database.outlinedRoom(at: 5.01, 6, onFloor: floor.id) == nil)

            // A hall drawn round the office: the office, smaller, keeps its own floor space.
            _ = try await database.setRoomOutline(hall.id, to: RoomOutline(outline: [[0, 0], [30, 0], [30, 30], [0, 30]]))
            #expect(try await database.room(at: 3, 4, onFloor: floor.id) == office.id)
            #expect(try await database.room(at: 19, 19, onFloor: floor.id) == hall.id, "nearer the office's location, in the hall's outline")

            try await database.deleteRoomOutline(office.id)
            #expect(try await database.room(at: 3, 4, onFloor: floor.id) == hall.id)
            _ = try await database.deleteRoom(hall.id, at: Self.now)
            #expect(try await database.room(at: 3, 4, onFloor: floor.id) == office.id, "the deleted hall's outline is gone from the cache")
        }
    }

    /// A position a scanner posts names its nearest location's room; switchd stores the room
    /// whose outline holds it instead, and keeps the scanner's outside every outline.
    @Test(arguments: StoreBackend.allCases)
    func aPostedPositionTakesTheRoomOfItsOutline(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (floor, hall, office) = try await Self.hallAndOffice(in: database)
            _ = try await database.setRoomOutline(office.id, to: RoomOutline(outline: Self.office))
            func position(x: Double, y: Double) -> NewPosition {
                NewPosition(
                    scannerID: .default, time: Self.now, building: floor.building, floor: floor.id, x: x, y: y, roomID: hall.id,
                    nearestLocationID: nil, accuracyMetres: 2, method: "knn"
                )
            }
            #expect(try await database.createPosition(position(x: 3, y: 4)).roomID == office.id)
            #expect(try await database.createPosition(position(x: 9, y: 9)).roomID == hall.id)
        }
    }

    /// Four placed scanners hear a tag at (3, 4), where the hall's location is and the office's
    /// outline is drawn: the tracker's position names the office.
    @Test(arguments: StoreBackend.allCases)
    func aTagsPositionTakesTheRoomOfItsOutlineNotOfTheNearestLocation(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (floor, hall, office) = try await Self.hallAndOffice(in: database)
            _ = try await database.createLocation(NewLocation(roomID: hall.id, x: 3, y: 4))
            _ = try await database.createLocation(NewLocation(roomID: office.id, x: 9, y: 9))
            _ = try await database.setRoomOutline(office.id, to: RoomOutline(outline: [[1, 2], [6, 2], [6, 7], [1, 7]]))
            try await PostgresTagStoreTests.placeFourScanners(onFloor: floor.id, in: database)
            let tag = try await database.createTag(NewTag(name: "bike", identity: PostgresTagStoreTests.identity(7, 1)))
            let last = try await PostgresTagStoreTests.fourScannersHear(tag, atX: 3, y: 4, in: database)
            let position = try #require(try await TagTracker(database: database).locate(tag.id, at: Readings.start.addingTimeInterval(1), storedUpTo: last))
            #expect(abs(position.x - 3) < 0.5 && abs(position.y - 4) < 0.5, "\(position)")
            #expect(position.roomID == office.id)
            #expect(try await database.room(nearestTo: position.x, position.y, onFloor: floor.id) == hall.id, "the rule outlines replace")
        }
    }
}
