import Foundation
import GRDB
import ScanContract

/// Which stored positions a listing or stream wants; nil fields do not filter.
struct PositionFilter: Sendable {
    var scannerID: ScannerID?
    /// Positions computed at or after this time.
    var since: Date?
    /// Positions computed before this time.
    var until: Date?
}

extension AppDatabase {
    /// Stores a position a scanner computed.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner; ``StoreError/invalidField(_:)``
    ///   naming `floor` (unknown), `building` (not the floor's), `roomID` or `nearestLocationID`
    ///   (unknown, or not on that floor), or the field ``NewPosition/validate()`` names.
    func createPosition(_ new: NewPosition) async throws -> Position {
        try validate(new.validate)
        return try await writer.write { db in
            guard try Self.scannerExists(new.scannerID, in: db) else { throw StoreError.notFound("no scanner \(new.scannerID)") }
            guard let building = try String.fetchOne(db, sql: "SELECT building FROM floor WHERE id = ?", arguments: [new.floor]) else {
                throw StoreError.invalidField(ValidationError(field: "floor", reason: "no floor \(new.floor)"))
            }
            guard building == new.building else {
                throw StoreError.invalidField(ValidationError(field: "building", reason: "floor \(new.floor) is in building \"\(building)\", not \"\(new.building.prefix(64))\""))
            }
            try Self.checkOnFloor(new.roomID, field: "roomID", kind: "room", sql: "SELECT floor_id FROM room WHERE id = ?", floor: new.floor, in: db)
            try Self.checkOnFloor(
                new.nearestLocationID, field: "nearestLocationID", kind: "location",
                sql: "SELECT room.floor_id FROM location JOIN room ON room.id = location.room_id WHERE location.id = ?", floor: new.floor, in: db
            )
            try db.execute(sql: """
                INSERT INTO position (scanner_id, time_ms, building, floor_id, x, y, room_id, nearest_location_id, accuracy_metres, method, beacons)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [
                    new.scannerID.rawValue, new.time.milliseconds, new.building, new.floor, new.x, new.y,
                    new.roomID, new.nearestLocationID, new.accuracyMetres, new.method,
                    try new.beacons.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) },
                ])
            var stored = new
            stored.time = Date(milliseconds: new.time.milliseconds)
            return Position(id: db.lastInsertedRowID, stored)
        }
    }

    /// Up to `limit` positions matching `filter` with an ID above `id`, ascending, read in one
    /// snapshot with the highest ID given out.
    func positions(matching filter: PositionFilter, after id: Int64, limit: Int) async throws -> FeedSlice<Position> {
        try await writer.read { db in
            var conditions = SQLConditions()
            conditions.add("id > ?", id)
            conditions.add("scanner_id = ?", filter.scannerID?.rawValue)
            conditions.add("time_ms >= ?", filter.since?.milliseconds)
            conditions.add("time_ms < ?", filter.until?.milliseconds)
            let sql = "\(Self.positionSelect) WHERE \(conditions.sql) ORDER BY id LIMIT ?"
            let arguments = conditions.arguments + [limit]
            let items = try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.position(from:))
            return FeedSlice(items: items, endOfFeed: try Self.endOfPositionFeed(in: db))
        }
    }

    /// The highest position ID ever given out (0 before the first); deletes do not lower it.
    func endOfPositionFeed() async throws -> Int64 {
        try await writer.read { db in try Self.endOfPositionFeed(in: db) }
    }

    /// The stored positions matching `filter`, as a feed for paging and streaming.
    func positionSource(matching filter: PositionFilter, feed: SequenceFeed) -> FeedSource<Position> {
        FeedSource(
            event: "position", sequence: { $0.id },
            read: { after, limit in try await positions(matching: filter, after: after, limit: limit) },
            end: { try await endOfPositionFeed() }, feed: feed
        )
    }

    /// Each scanner's latest position by the time it was computed (of two at one time, the one
    /// stored last), ordered by scanner ID; only `scannerID`'s when given.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `scannerID` names no scanner or one with no
    ///   position yet.
    func latestPositions(of scannerID: ScannerID?) async throws -> [Position] {
        try await writer.read { db in
            let latestOfScanner = "\(Self.positionSelect) WHERE scanner_id = ? ORDER BY time_ms DESC, id DESC LIMIT 1"
            guard let scannerID else {
                return try String.fetchAll(db, sql: "SELECT id FROM scanner ORDER BY id").compactMap { scanner in
                    try Row.fetchOne(db, sql: latestOfScanner, arguments: [scanner]).map(Self.position(from:))
                }
            }
            guard try Self.scannerExists(scannerID, in: db) else { throw StoreError.notFound("no scanner \(scannerID)") }
            guard let row = try Row.fetchOne(db, sql: latestOfScanner, arguments: [scannerID.rawValue]) else {
                throw StoreError.notFound("scanner \(scannerID) has posted no position yet")
            }
            return [try Self.position(from: row)]
        }
    }

    private static func endOfPositionFeed(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'position'")) ?? 0
    }

    /// `id` is nil, or names a row of that kind whose floor (what `sql` selects) is `floor`.
    private static func checkOnFloor(_ id: Int64?, field: String, kind: String, sql: String, floor: Int64, in db: Database) throws {
        guard let id else { return }
        guard let floorOfID = try Int64.fetchOne(db, sql: sql, arguments: [id]) else {
            throw StoreError.invalidField(ValidationError(field: field, reason: "no \(kind) \(id)"))
        }
        guard floorOfID == floor else {
            throw StoreError.invalidField(ValidationError(field: field, reason: "\(kind) \(id) is on floor \(floorOfID), not floor \(floor)"))
        }
    }

    private static let positionSelect = """
        SELECT id, scanner_id, time_ms, building, floor_id, x, y, room_id, nearest_location_id, accuracy_metres, method, beacons FROM position
        """

    private static func position(from row: Row) throws -> Position {
        let new = NewPosition(
            scannerID: try storedScannerID(row[1]), time: Date(milliseconds: row[2]), building: row[3], floor: row[4],
            x: row[5], y: row[6], roomID: row[7], nearestLocationID: row[8], accuracyMetres: row[9], method: row[10],
            beacons: try (row[11] as String?).map { try JSONDecoder().decode([BeaconSighting].self, from: Data($0.utf8)) }
        )
        return Position(id: row[0], new)
    }
}
