import Foundation
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// One smoothing track per tag per cluster: the track is stored, so two trackers (two switchd
/// instances sharing one database) locating one tag's windows in turn smooth them as one
/// tracker locating them all.
extension PostgresTagStoreTests {
    /// A floor with two rooms, West (a location at x 2.5) and East (x 7.5), and the four
    /// scanners at its corners; returns the rooms.
    static func westAndEastHall(_ database: AppDatabase) async throws -> (west: Room, east: Room) {
        let floor = try await database.createFloor(NewFloor(name: "Ground"))
        let west = try await database.createRoom(NewRoom(floorID: floor.id, name: "West"))
        let east = try await database.createRoom(NewRoom(floorID: floor.id, name: "East"))
        _ = try await database.createLocation(NewLocation(roomID: west.id, x: 2.5, y: 5))
        _ = try await database.createLocation(NewLocation(roomID: east.id, x: 7.5, y: 5))
        try await TagWorld.placeScanners(in: database, floorID: floor.id)
        return (west, east)
    }

    /// Two tags walk the same way across two rooms, every scanner hearing both alike: "alone"
    /// is located by one tracker, window after window; "shared" by trackers A and B in turn (A
    /// the odd windows, B the even ones). Their positions are the same: place, room, accuracy.
    /// Deleting a tag deletes its track.
    @Test(.timeLimit(.minutes(2)), arguments: StoreBackend.allCases)
    func twoTrackersTakingATagsWindowsInTurnSmoothThemAsOne(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (west, east) = try await Self.westAndEastHall(database)
            let alone = try await database.createTag(NewTag(name: "alone", identity: Self.identity(7, 1)))
            let shared = try await database.createTag(NewTag(name: "shared", identity: Self.identity(7, 2)))
            let (one, a, b) = (TagTracker(database: database), TagTracker(database: database), TagTracker(database: database))

            var located: [(alone: TagPosition, shared: TagPosition)] = []
            for second in 1...20 {
                // Half a metre a second from west to east, wavering across the hall.
                let (x, y) = (0.5 + 0.45 * Double(second), 5 + (second.isMultiple(of: 3) ? 0.6 : -0.3))
                for index in TagWorld.corners.indices {
                    let rssi = TagWorld.rssi(index, tagAt: x, y)
                    _ = try await database.ingestSightings(SightingBatch(scannerID: TagWorld.scannerID(index), sightings: [
                        TagWorld.sighting(alone.identity, rssi: rssi, at: TimeInterval(second)),
                        TagWorld.sighting(shared.identity, rssi: rssi, at: TimeInterval(second)),
                    ]), reading: TagTracker.Settings().rssiStatistic)
                }
                let end = Readings.start.addingTimeInterval(TimeInterval(second))
                let byOne = try #require(try await one.locate(alone.id, at: end))
                let inTurn = try #require(try await (second.isMultiple(of: 2) ? b : a).locate(shared.id, at: end))
                located.append((byOne, inTurn))
            }

            for (index, pair) in located.enumerated() {
                let (expected, actual) = pair
                #expect(actual.time == expected.time && actual.floorID == expected.floorID, "window \(index + 1)")
                #expect(actual.x == expected.x && actual.y == expected.y, "window \(index + 1): \(actual) against \(expected)")
                #expect(actual.accuracyMetres == expected.accuracyMetres && actual.roomID == expected.roomID, "window \(index + 1): \(actual) against \(expected)")
                #expect(actual.method == expected.method && actual.scannersHeard == 4)
            }
            #expect(located.first?.alone.roomID == west.id && located.last?.alone.roomID == east.id, "the room smoother followed the walk")
            let feed = try await database.tagPositions(of: shared.id, since: nil, until: nil, after: 0, limit: 100)
            #expect(feed.items == located.map(\.shared), "what each tracker answered is what is stored")

            // The stored track reads back through the record's own JSON (an unreadable one would
            // start afresh at every window, silently unsmoothed), and it carries the walk: a track
            // begun anew each window would know no velocity.
            let stored = try await database.readStatements { sql in try TagTrackRecord.state(of: alone.id, in: sql) }
            let track = try #require(stored, "the stored track reads back")
            #expect(track.filter.lastTime == Readings.start.addingTimeInterval(20).timeIntervalSince1970)
            #expect(track.filter.velocityX > 0.2, "the filter learned the eastward walk across windows: \(track.filter)")

            try await database.deleteTag(shared.id)
            let tracks = try await database.readStatements { sql in
                try sql.rows("SELECT tag_id FROM tag_track ORDER BY tag_id", []).map { try $0.int64("tag_id") }
            }
            #expect(tracks == [alone.id], "the deleted tag's track went with it")
        }
    }

    /// A stored track outlives rooms: once the room a tag was settled in is deleted, the next
    /// window is stored in a room that exists (the track's beliefs in the deleted room dropped),
    /// not refused for naming it; and a track that cannot be read is started afresh.
    @Test(.timeLimit(.minutes(2)), arguments: StoreBackend.allCases)
    func aTrackGoesOnAfterItsRoomIsDeletedOrItsStateIsUnreadable(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (west, east) = try await Self.westAndEastHall(database)
            let tag = try await database.createTag(NewTag(name: "asset", identity: Self.identity(7, 3)))
            let tracker = TagTracker(database: database)
            func window(_ second: Int) async throws -> TagPosition {
                for index in TagWorld.corners.indices {
                    _ = try await database.ingestSightings(SightingBatch(scannerID: TagWorld.scannerID(index), sightings: [
                        TagWorld.sighting(tag.identity, rssi: TagWorld.rssi(index, tagAt: 2.5, 5), at: TimeInterval(second)),
                    ]), reading: TagTracker.Settings().rssiStatistic)
                }
                return try #require(try await tracker.locate(tag.id, at: Readings.start.addingTimeInterval(TimeInterval(second))))
            }
            for second in 1...5 {
                #expect(try await window(second).roomID == west.id)
            }
            _ = try await database.deleteRoom(west.id, at: Readings.start.addingTimeInterval(5.5))
            #expect(try await window(6).roomID == east.id, "the only room left")
            #expect(try await window(7).roomID == east.id)

            _ = try await database.writeStatements { sql in
                try sql.execute("UPDATE tag_track SET state = ? WHERE tag_id = ?", [.text("{\"from\": \"another version\"}"), .integer(tag.id)])
            }
            #expect(try await window(8).roomID == east.id, "an unreadable track is started afresh")
            #expect(try await database.tagPositions(of: tag.id, since: nil, until: nil, after: 0, limit: 100).items.count == 8)
        }
    }
}
