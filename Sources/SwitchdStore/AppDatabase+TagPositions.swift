import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// Stores a computed position (its `id` is ignored) and returns it as stored.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when the tag or floor was deleted meanwhile.
    package func storeTagPosition(_ position: TagPosition) async throws -> TagPosition {
        try await write { db in
            _ = try Self.tagRecord(position.tagID, in: db)
            guard try FloorRecord.exists(db, key: position.floorID) else { throw StoreError.notFound("no floor \(position.floorID)") }
            var record = TagPositionRecord(position)
            record.id = nil
            try record.insert(db)
            return record.position
        }
    }

    /// The room of the location nearest (x, y) on the floor; nil when the floor has none.
    package func room(nearestTo x: Double, _ y: Double, onFloor floorID: Int64) async throws -> Int64? {
        try await read { db in
            try Int64.fetchOne(db, sql: """
                SELECT location.room_id FROM location JOIN room ON room.id = location.room_id
                WHERE room.floor_id = ? ORDER BY (location.x - ?) * (location.x - ?) + (location.y - ?) * (location.y - ?), location.id LIMIT 1
                """, arguments: [floorID, x, x, y, y])
        }
    }

    /// The tag's positions after ID `after`, ascending, with `time` in `since..<until`.
    package func tagPositions(of tagID: Int64, since: Date?, until: Date?, after id: Int64, limit: Int) async throws -> FeedSlice<TagPosition> {
        try await read { db in
            typealias Columns = TagPositionRecord.Columns
            var request = TagPositionRecord.filter(Columns.tagID == tagID && Columns.id > id)
            if let since { request = request.filter(Columns.timeMs >= since.milliseconds) }
            if let until { request = request.filter(Columns.timeMs < until.milliseconds) }
            let items = try request.order(Columns.id).limit(limit).fetchAll(db).map(\.position)
            return FeedSlice(items: items, endOfFeed: try AutoincrementEnd.of(TagPositionRecord.databaseTableName, in: db))
        }
    }

    package func endOfTagPositionFeed() async throws -> Int64 {
        try await read { db in try AutoincrementEnd.of(TagPositionRecord.databaseTableName, in: db) }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag or one never located.
    package func latestTagPosition(of tagID: Int64) async throws -> TagPosition {
        try await read { db in
            _ = try Self.tagRecord(tagID, in: db)
            guard let record = try TagPositionRecord.filter(TagPositionRecord.Columns.tagID == tagID)
                .order(TagPositionRecord.Columns.timeMs.desc, TagPositionRecord.Columns.id.desc).fetchOne(db) else {
                throw StoreError.notFound("tag \(tagID) has not been located yet")
            }
            return record.position
        }
    }

    /// The tag's events after ID `after`, ascending: its presence events (the tag kinds carry
    /// their tag), so their IDs are those of `GET /v1/events`.
    package func tagEvents(of tagID: Int64, after id: Int64, limit: Int) async throws -> FeedSlice<TagEvent> {
        try await read { db in
            let items = try PresenceEventRecord.filter(PresenceEventRecord.Columns.tagID == tagID && PresenceEventRecord.Columns.id > id)
                .order(PresenceEventRecord.Columns.id).limit(limit).fetchAll(db).map { try $0.tagEvent() }
            return FeedSlice(items: items, endOfFeed: try AutoincrementEnd.of(PresenceEventRecord.databaseTableName, in: db))
        }
    }

    package func endOfTagEventFeed() async throws -> Int64 {
        try await read { db in try AutoincrementEnd.of(PresenceEventRecord.databaseTableName, in: db) }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag.
    package func checkTagExists(_ tagID: Int64) async throws {
        try await read { db in _ = try Self.tagRecord(tagID, in: db) }
    }
}
