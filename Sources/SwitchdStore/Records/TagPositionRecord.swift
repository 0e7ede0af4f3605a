import Foundation
import ScanContract

/// A `tag_position` row, read as a ``TagPosition`` and written the same way on either database.
struct TagPositionRecord {
    var id: Int64?
    var tagID: Int64
    var timeMs: Int64
    var floorID: Int64
    var x: Double
    var y: Double
    var roomID: Int64?
    var accuracyMetres: Double
    var method: String
    var scannersHeard: Int

    init(_ position: TagPosition) {
        id = position.id == 0 ? nil : position.id
        tagID = position.tagID
        timeMs = position.time.milliseconds
        floorID = position.floorID
        x = position.x
        y = position.y
        roomID = position.roomID
        accuracyMetres = position.accuracyMetres
        method = position.method
        scannersHeard = position.scannersHeard
    }

    var position: TagPosition {
        TagPosition(
            id: id ?? 0, tagID: tagID, time: Date(milliseconds: timeMs), floorID: floorID, x: x, y: y, roomID: roomID,
            accuracyMetres: accuracyMetres, method: method, scannersHeard: scannersHeard
        )
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        tagID = try row.int64("tag_id")
        timeMs = try row.int64("time_ms")
        floorID = try row.int64("floor_id")
        x = try row.double("x")
        y = try row.double("y")
        roomID = try row.optionalInt64("room_id")
        accuracyMetres = try row.double("accuracy_metres")
        method = try row.string("method")
        scannersHeard = try row.int("scanners_heard")
    }

    static let columns = "id, tag_id, time_ms, floor_id, x, y, room_id, accuracy_metres, method, scanners_heard"

    /// Positions matching `filter` (an SQL condition on `tag_position` with a `?` per value) in
    /// `order`, at most `limit`.
    static func fetchAll(_ sql: any StoreTransaction, filter: StoreConditions, order: String, limit: Int) throws -> [TagPositionRecord] {
        try sql.rows(
            "SELECT \(columns) FROM tag_position WHERE \(filter.sql) ORDER BY \(order) LIMIT ?", filter.values + [StoreValue(limit)]
        ).map(TagPositionRecord.init(row:))
    }

    /// Stores the position and returns its ID.
    func inserted(_ sql: any StoreTransaction) throws -> Int64 {
        guard let row = try sql.row("""
            INSERT INTO tag_position (tag_id, time_ms, floor_id, x, y, room_id, accuracy_metres, method, scanners_heard)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [
                .integer(tagID), .integer(timeMs), .integer(floorID), .real(x), .real(y), StoreValue(roomID), .real(accuracyMetres),
                .text(method), StoreValue(scannersHeard),
            ]) else { throw StoreError.corruptRow("inserting a tag position returned no row") }
        return try row.int64("id")
    }
}
