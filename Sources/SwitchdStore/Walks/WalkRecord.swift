import Foundation
import ScanContract

/// A `walk` row (``SchemaWalkSurvey``), through a ``StoreRow`` on either database. Read as a
/// ``Walk`` through ``fetchWalks(_:filter:values:)``, which adds the floor and the count of points.
struct WalkRecord: Codable {
    var id: Int64?
    var scannerID: String
    var revision: Int
    var fromLocationID: Int64?
    var toLocationID: Int64?
    var roomID: Int64
    var startX: Double
    var startY: Double
    var endX: Double
    var endY: Double
    var startedMs: Int64
    var arrivedMs: Int64?
    var state: String
    var droppedCycles: Int

    enum CodingKeys: String, CodingKey {
        case id, scannerID = "scanner_id", revision, fromLocationID = "from_location_id", toLocationID = "to_location_id"
        case roomID = "room_id", startX = "start_x", startY = "start_y", endX = "end_x", endY = "end_y"
        case startedMs = "started_ms", arrivedMs = "arrived_ms", state, droppedCycles = "dropped_cycles"
    }

    init(
        scannerID: String, revision: Int, fromLocationID: Int64?, toLocationID: Int64?, roomID: Int64, startX: Double, startY: Double,
        endX: Double, endY: Double, startedMs: Int64, arrivedMs: Int64?, state: String, droppedCycles: Int
    ) {
        self.scannerID = scannerID
        self.revision = revision
        self.fromLocationID = fromLocationID
        self.toLocationID = toLocationID
        self.roomID = roomID
        self.startX = startX
        self.startY = startY
        self.endX = endX
        self.endY = endY
        self.startedMs = startedMs
        self.arrivedMs = arrivedMs
        self.state = state
        self.droppedCycles = droppedCycles
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        typealias Key = CodingKeys
        id = try row.int64(Key.id.rawValue)
        scannerID = try row.string(Key.scannerID.rawValue)
        revision = try row.int(Key.revision.rawValue)
        fromLocationID = try row.optionalInt64(Key.fromLocationID.rawValue)
        toLocationID = try row.optionalInt64(Key.toLocationID.rawValue)
        roomID = try row.int64(Key.roomID.rawValue)
        startX = try row.double(Key.startX.rawValue)
        startY = try row.double(Key.startY.rawValue)
        endX = try row.double(Key.endX.rawValue)
        endY = try row.double(Key.endY.rawValue)
        startedMs = try row.int64(Key.startedMs.rawValue)
        arrivedMs = try row.optionalInt64(Key.arrivedMs.rawValue)
        state = try row.string(Key.state.rawValue)
        droppedCycles = try row.int(Key.droppedCycles.rawValue)
    }

    /// Walks with their floor and number of points, ordered by ID, on either database. `filter`
    /// is an SQL condition on `walk` and `room` with a `?` per value, or empty for all.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` for a row switchd would not write.
    static func fetchWalks(_ sql: any StoreTransaction, filter: String = "", values: [StoreValue] = []) throws -> [Walk] {
        let condition = filter.isEmpty ? "" : "WHERE \(filter)"
        return try sql.rows("""
            SELECT walk.*, room.floor_id AS floor_id, (SELECT COUNT(*) FROM location WHERE location.walk_id = walk.id) AS points
            FROM walk JOIN room ON room.id = walk.room_id
            \(condition)
            ORDER BY walk.id
            """, values).map { row in
            try WalkRecord(row: row).walk(floorID: row.int64("floor_id"), points: row.int("points"))
        }
    }

    /// The walk rows matching `filter` (an SQL condition on `walk` with a `?` per value), by ID.
    static func fetchRecords(_ sql: any StoreTransaction, filter: String, values: [StoreValue]) throws -> [WalkRecord] {
        try sql.rows("SELECT * FROM walk WHERE \(filter) ORDER BY id", values).map(WalkRecord.init(row:))
    }

    /// The walk row, or nil.
    static func fetchRecord(_ sql: any StoreTransaction, id: Int64) throws -> WalkRecord? {
        try fetchRecords(sql, filter: "id = ?", values: [.integer(id)]).first
    }

    /// The walk a scanner surveys under `revision`, if that revision belongs to one.
    static func walk(_ sql: any StoreTransaction, scannerID: String, revision: Int) throws -> WalkRecord? {
        try fetchRecords(sql, filter: "scanner_id = ? AND revision = ?", values: [.text(scannerID), .integer(Int64(revision))]).first
    }

    /// Inserts the walk on either database and returns its new ID.
    func insert(_ sql: any StoreTransaction) throws -> Int64 {
        guard let row = try sql.row("""
            INSERT INTO walk (
                scanner_id, revision, from_location_id, to_location_id, room_id, start_x, start_y, end_x, end_y,
                started_ms, arrived_ms, state, dropped_cycles
            ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [
                .text(scannerID), .integer(Int64(revision)), StoreValue(fromLocationID), StoreValue(toLocationID), .integer(roomID),
                .real(startX), .real(startY), .real(endX), .real(endY), .integer(startedMs), StoreValue(arrivedMs), .text(state),
                StoreValue(droppedCycles),
            ]) else { throw StoreError.corruptRow("inserting a walk returned no ID") }
        return try row.int64("id")
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a state or scanner ID switchd would not write.
    func walk(floorID: Int64, points: Int) throws -> Walk {
        guard let walkState = WalkState(rawValue: state), let scanner = try? ScannerID(scannerID) else {
            throw StoreError.corruptRow("walk \(id ?? 0) holds state \"\(state)\" and scanner \"\(scannerID)\"")
        }
        return Walk(
            id: id ?? 0, scannerID: scanner, fromLocationID: fromLocationID, toLocationID: toLocationID, roomID: roomID,
            floorID: floorID, startX: startX, startY: startY, endX: endX, endY: endY, switchRevision: revision,
            startedAt: Date(milliseconds: startedMs), arrivedAt: arrivedMs.map(Date.init(milliseconds:)), state: walkState,
            points: points, droppedCycles: droppedCycles
        )
    }
}
