import Foundation
import GRDB
import Positioning
import ScanContract

extension AppDatabase {
    /// Stores a computed position of a tag's window (its `id` is ignored) and returns it as
    /// stored, unless the tag already has a position at that time (see
    /// ``storeTagPosition(of:at:onFloor:locating:)``, which leaves the tag's track as it is).
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when the tag or floor was deleted meanwhile.
    package func storeTagPosition(_ position: TagPosition) async throws -> TagPosition {
        try await storeTagPosition(of: position.tagID, at: position.time, onFloor: position.floorID) { _, _ in (position, nil) }
    }

    /// Stores the position of the tag's window ending at `time` on floor `floorID` that
    /// `locating` makes from the tag's stored track (nil when it has none), and the track it
    /// leaves (nil: the track stays as it was), in one transaction, and returns the position as
    /// stored. `locating` is given the room of a point of the floor (the smallest outline holding
    /// it, else the nearest location's room, nil when the floor has neither: ``RoomOutlines``),
    /// read in that transaction but for the outlines, which come from ``outlineCache``; it may be
    /// run again (a retried transaction) and must be a function of what it is given.
    ///
    /// When the tag already has a position at `time`, that one is returned and nothing is
    /// stored, the track included: a window closed by two instances (each closing the windows of
    /// the posts it received) is in the feed once and steps the track once, as the first close
    /// stored it, and a position once in the feed never changes. On PostgreSQL it holds the
    /// feed's lock from before it reads the tag until it commits, so two closes of one tag's
    /// windows, on any instances, run one after the other, each with the track the other left;
    /// a new position is announced to every instance on ``feedChannel`` (`"tag_position <id>"`,
    /// docs/scale-out.md, "Fan-out across instances").
    ///
    /// The stored track is given to `locating` without beliefs in rooms the floor no longer has
    /// (``TagTrack/State/keepingRooms(_:)``); an unreadable track is given as none.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when the tag or floor was deleted meanwhile; what
    ///   `locating` throws. Nothing is stored then.
    package func storeTagPosition(
        of tagID: Int64, at time: Date, onFloor floorID: Int64,
        locating: @escaping @Sendable (
            _ track: TagTrack.State?, _ nearestRoom: (_ x: Double, _ y: Double) throws -> Int64?
        ) throws -> (position: TagPosition, track: TagTrack.State?)
    ) async throws -> TagPosition {
        let (outlines, generation) = (outlineCache, outlineCache.generation)
        return try await writeStatements { sql in
            try sql.lock(SequencedFeed.tagPositions.lock)
            _ = try Self.tagRecord(tagID, in: sql)
            guard try FloorRecord.exists(sql, id: floorID) else { throw StoreError.notFound("no floor \(floorID)") }
            var window = StoreConditions()
            window.add("tag_id = ?", .integer(tagID))
            window.add("time_ms = ?", .integer(time.milliseconds))
            if let stored = try TagPositionRecord.fetchAll(sql, filter: window, order: "id", limit: 1).first {
                return try GeoFrames.load(sql).place(stored.position)
            }
            // Beliefs in rooms deleted since, or on the floor the tag was on, are dropped: a
            // smoothed room must be one the position can name.
            let rooms = try Self.roomIDs(onFloor: floorID, in: sql)
            let stored = try TagTrackRecord.state(of: tagID, in: sql).map { $0.keepingRooms(rooms) }
            let (position, track) = try locating(stored) { x, y in
                // An outline cached before its room was deleted on another instance names no room.
                if let outlined = try Self.outlinedRoom(at: x, y, onFloor: floorID, outlines: outlines, generation: generation, in: sql),
                   rooms.contains(outlined) {
                    return outlined
                }
                return try Self.room(nearestTo: x, y, onFloor: floorID, in: sql)
            }
            var record = TagPositionRecord(position)
            record.id = try record.inserted(sql)
            if let track { try TagTrackRecord.save(track, of: tagID, in: sql) }
            try sql.notify(Self.feedChannel, "\(SequencedFeed.tagPositions.name) \(record.id ?? 0)")
            return try GeoFrames.load(sql).place(record.position)
        }
    }

    /// The IDs of the floor's rooms.
    static func roomIDs(onFloor floorID: Int64, in sql: any StoreTransaction) throws -> Set<Int64> {
        Set(try sql.rows("SELECT id FROM room WHERE floor_id = ?", [.integer(floorID)]).map { try $0.int64("id") })
    }

    /// The room of the location nearest (x, y) on the floor; nil when the floor has none.
    package func room(nearestTo x: Double, _ y: Double, onFloor floorID: Int64) async throws -> Int64? {
        try await readStatements { sql in try Self.room(nearestTo: x, y, onFloor: floorID, in: sql) }
    }

    /// ``room(nearestTo:_:onFloor:)`` in a transaction under way.
    static func room(nearestTo x: Double, _ y: Double, onFloor floorID: Int64, in sql: any StoreTransaction) throws -> Int64? {
        try sql.row("""
            SELECT location.room_id FROM location JOIN room ON room.id = location.room_id
            WHERE room.floor_id = ? ORDER BY (location.x - ?) * (location.x - ?) + (location.y - ?) * (location.y - ?), location.id LIMIT 1
            """, [.integer(floorID), .real(x), .real(x), .real(y), .real(y)])?.int64("room_id")
    }

    /// The tag's positions (every tag's when `tagID` is nil) after ID `after`, ascending, with
    /// `time` in `since..<until`, read in one snapshot with the feed's end; with latitude and
    /// longitude on a geo-referenced floor.
    package func tagPositions(of tagID: Int64?, since: Date?, until: Date?, after id: Int64, limit: Int) async throws -> FeedSlice<TagPosition> {
        try await readStatements { sql in
            var conditions = StoreConditions()
            conditions.add("tag_id = ?", tagID.map(StoreValue.integer))
            conditions.add("id > ?", .integer(id))
            conditions.add("time_ms >= ?", since.map { .integer($0.milliseconds) })
            conditions.add("time_ms < ?", until.map { .integer($0.milliseconds) })
            let frames = try GeoFrames.load(sql)
            let items = try TagPositionRecord.fetchAll(sql, filter: conditions, order: "id", limit: limit).map { frames.place($0.position) }
            return FeedSlice(items: items, endOfFeed: try SequencedFeed.tagPositions.end(in: sql))
        }
    }

    package func endOfTagPositionFeed() async throws -> Int64 {
        try await readStatements { sql in try SequencedFeed.tagPositions.end(in: sql) }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag or one never located.
    package func latestTagPosition(of tagID: Int64) async throws -> TagPosition {
        try await readStatements { sql in
            _ = try Self.tagRecord(tagID, in: sql)
            var conditions = StoreConditions()
            conditions.add("tag_id = ?", .integer(tagID))
            guard let record = try TagPositionRecord.fetchAll(sql, filter: conditions, order: "time_ms DESC, id DESC", limit: 1).first else {
                throw StoreError.notFound("tag \(tagID) has not been located yet")
            }
            return try GeoFrames.load(sql).place(record.position)
        }
    }

    /// The tag's belief in each room as its stored track stands (``RoomSmoother/State``); nil
    /// when it has no track (never located, or one this version cannot read).
    package func tagRoomBeliefs(of tagID: Int64) async throws -> RoomSmoother.State? {
        try await readStatements { sql in try TagTrackRecord.state(of: tagID, in: sql)?.rooms }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag.
    package func checkTagExists(_ tagID: Int64) async throws {
        try await readStatements { sql in _ = try Self.tagRecord(tagID, in: sql) }
    }
}
