import Foundation
import GRDB
import ScanContract

/// A `walk` row (``SchemaWalkSurvey``). Read as a ``Walk`` through ``fetchWalks(_:filter:arguments:)``,
/// which adds the floor and the count of points.
struct WalkRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "walk"

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

    /// Walks with their floor and number of points, ordered by ID. `filter` is an SQL condition on
    /// `walk`, or empty for all.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` for a row switchd would not write.
    static func fetchWalks(_ db: Database, filter: String = "", arguments: StatementArguments = []) throws -> [Walk] {
        let condition = filter.isEmpty ? "" : "WHERE \(filter)"
        return try Row.fetchAll(db, sql: """
            SELECT walk.*, room.floor_id AS floor_id, (SELECT COUNT(*) FROM location WHERE location.walk_id = walk.id) AS points
            FROM walk JOIN room ON room.id = walk.room_id
            \(condition)
            ORDER BY walk.id
            """, arguments: arguments).map { row in
            try WalkRecord(row: row).walk(floorID: row["floor_id"], points: row["points"])
        }
    }

    /// The walk a scanner surveys under `revision`, if that revision belongs to one.
    static func walk(_ db: Database, scannerID: String, revision: Int) throws -> WalkRecord? {
        try WalkRecord.fetchOne(db, sql: "SELECT * FROM walk WHERE scanner_id = ? AND revision = ?", arguments: [scannerID, revision])
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
