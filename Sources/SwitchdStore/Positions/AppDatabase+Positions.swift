import Foundation
import ScanContract

/// Which stored positions a listing or stream wants; nil fields do not filter.
package struct PositionFilter: Sendable {
    package var scannerID: ScannerID?
    /// Positions computed at or after this time.
    package var since: Date?
    /// Positions computed before this time.
    package var until: Date?

    package init(scannerID: ScannerID? = nil, since: Date? = nil, until: Date? = nil) {
        self.scannerID = scannerID
        self.since = since
        self.until = until
    }
}

extension AppDatabase {
    /// Stores a position a scanner computed, announced on the position feed
    /// (``SequencedFeed/positions``) when it commits. Its room is the room whose outline holds it
    /// (``RoomOutlines``) when one does, else the room the scanner named (its nearest location's).
    ///
    /// Takes the survey's lock (the floor, room and location it names stay as read until the
    /// commit) and then the position feed's (IDs commit in order), the order of every deletion
    /// that keeps that feed's end.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner; ``StoreError/invalidField(_:)``
    ///   naming `floor` (unknown), `building` (not the floor's), `roomID` or `nearestLocationID`
    ///   (unknown, or not on that floor), or the field ``NewPosition/validate()`` names.
    package func createPosition(_ new: NewPosition) async throws -> Position {
        try validate(new.validate)
        let record = try PositionRecord(new)
        let (outlines, generation) = (outlineCache, outlineCache.generation)
        return try await writeStatements { sql in
            var record = record
            try sql.lock(Self.surveyLock)
            try sql.lock(SequencedFeed.positions.lock)
            guard try sql.row("SELECT id FROM scanner WHERE id = ?", [.text(new.scannerID.rawValue)]) != nil else {
                throw StoreError.notFound("no scanner \(new.scannerID)")
            }
            guard let building = try sql.row("SELECT building FROM floor WHERE id = ?", [.integer(new.floor)])?.string("building") else {
                throw StoreError.invalidField(ValidationError(field: "floor", reason: "no floor \(new.floor)"))
            }
            guard building == new.building else {
                throw StoreError.invalidField(ValidationError(
                    field: "building", reason: "floor \(new.floor) is in building \"\(building)\", not \"\(new.building.prefix(64))\""
                ))
            }
            try Self.checkOnFloor(new.roomID, field: "roomID", kind: "room", floor: new.floor) { id in
                try RoomRecord.fetchRoom(sql, id: id)?.floorID
            }
            try Self.checkOnFloor(new.nearestLocationID, field: "nearestLocationID", kind: "location", floor: new.floor) { id in
                try LocationRecord.fetchLocation(sql, id: id)?.floorID
            }
            // The room of an outline holding the position wins over the scanner's (its nearest
            // location's); a room gone since the outline was cached names nothing.
            if let outlined = try Self.outlinedRoom(at: new.x, new.y, onFloor: new.floor, outlines: outlines, generation: generation, in: sql),
               try sql.row("SELECT floor_id FROM room WHERE id = ?", [.integer(outlined)])?.int64("floor_id") == new.floor {
                record.roomID = outlined
            }
            let inserted = try record.insert(sql)
            try sql.notify(Self.feedChannel, "\(SequencedFeed.positions.name) \(inserted.id ?? 0)")
            return try GeoFrames.load(sql).place(inserted.position())
        }
    }

    /// Up to `limit` positions matching `filter` with an ID above `id`, ascending, read in one
    /// snapshot with the feed's end (``SequencedFeed/end(in:)``).
    package func positions(matching filter: PositionFilter, after id: Int64, limit: Int) async throws -> FeedSlice<Position> {
        try await readStatements { sql in
            var conditions = StoreConditions()
            conditions.add("id > ?", .integer(id))
            conditions.add("scanner_id = ?", filter.scannerID.map { .text($0.rawValue) })
            conditions.add("time_ms >= ?", filter.since.map { .integer($0.milliseconds) })
            conditions.add("time_ms < ?", filter.until.map { .integer($0.milliseconds) })
            let frames = try GeoFrames.load(sql)
            let items = try PositionRecord.fetchPositions(sql, filter: conditions.sql, order: "id", limit: limit, values: conditions.values)
                .map { try frames.place($0.position()) }
            return FeedSlice(items: items, endOfFeed: try SequencedFeed.positions.end(in: sql))
        }
    }

    /// The highest position ID ever given out (0 before the first); deletes do not lower it.
    package func endOfPositionFeed() async throws -> Int64 {
        try await readStatements { sql in try SequencedFeed.positions.end(in: sql) }
    }

    /// Each scanner's latest position by the time it was computed (of two at one time, the one
    /// stored last), ordered by scanner ID; only `scannerID`'s when given.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `scannerID` names no scanner or one with no
    ///   position yet.
    package func latestPositions(of scannerID: ScannerID?) async throws -> [Position] {
        try await readStatements { sql in
            let frames = try GeoFrames.load(sql)
            func latest(of scanner: String) throws -> Position? {
                let record = try PositionRecord.fetchPositions(
                    sql, filter: "scanner_id = ?", order: "time_ms DESC, id DESC", limit: 1, values: [.text(scanner)]
                ).first
                return try record.map { frames.place(try $0.position()) }
            }
            guard let scannerID else {
                return try sql.rows("SELECT id FROM scanner ORDER BY id", []).compactMap { try latest(of: $0.string("id")) }
            }
            guard try sql.row("SELECT id FROM scanner WHERE id = ?", [.text(scannerID.rawValue)]) != nil else {
                throw StoreError.notFound("no scanner \(scannerID)")
            }
            guard let position = try latest(of: scannerID.rawValue) else {
                throw StoreError.notFound("scanner \(scannerID) has posted no position yet")
            }
            return [position]
        }
    }

    /// `id` is nil, or names a row of that kind whose floor (what `floorOf` reads) is `floor`.
    private static func checkOnFloor(
        _ id: Int64?, field: String, kind: String, floor: Int64, floorOf: (Int64) throws -> Int64?
    ) throws {
        guard let id else { return }
        guard let floorOfID = try floorOf(id) else {
            throw StoreError.invalidField(ValidationError(field: field, reason: "no \(kind) \(id)"))
        }
        guard floorOfID == floor else {
            throw StoreError.invalidField(ValidationError(field: field, reason: "\(kind) \(id) is on floor \(floorOfID), not floor \(floor)"))
        }
    }
}
