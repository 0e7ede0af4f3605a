import Foundation
import ScanContract

/// A `presence_state` row, read as a ``PresenceState``; written and read through
/// ``StoreTransaction`` in the SQL both databases speak.
struct PresenceStateRecord {
    var scannerID: String
    var settled: Bool
    var floorID: Int64?
    var roomID: Int64?
    var candidateFloorID: Int64?
    var candidateRoomID: Int64?
    var candidateSinceMs: Int64?
    var away: Bool
    var lastPositionID: Int64
    var lastTimeMs: Int64

    init(_ state: PresenceState, scannerID: ScannerID) {
        self.scannerID = scannerID.rawValue
        settled = state.settled != nil
        floorID = state.settled?.floor
        roomID = state.settled?.roomID
        candidateFloorID = state.candidate?.floor
        candidateRoomID = state.candidate?.roomID
        candidateSinceMs = state.candidate == nil ? nil : state.candidateSince?.milliseconds
        away = state.away
        lastPositionID = state.lastPositionID
        lastTimeMs = state.lastTime.milliseconds
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` when a settled scanner has no floor.
    func state() throws -> PresenceState {
        var spot: PresenceSpot?
        if settled {
            guard let floorID else { throw StoreError.corruptRow("presence state of \(scannerID) is settled on no floor") }
            spot = PresenceSpot(floor: floorID, roomID: roomID)
        }
        let candidate = candidateFloorID.map { PresenceSpot(floor: $0, roomID: candidateRoomID) }
        return PresenceState(
            settled: spot, candidate: candidate, candidateSince: candidate == nil ? nil : candidateSinceMs.map(Date.init(milliseconds:)),
            away: away, lastPositionID: lastPositionID, lastTime: Date(milliseconds: lastTimeMs)
        )
    }
}

extension PresenceStateRecord {
    static let columns = """
        scanner_id, settled, floor_id, room_id, candidate_floor_id, candidate_room_id, candidate_since_ms, away, last_position_id, last_time_ms
        """

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        scannerID = try row.string("scanner_id")
        settled = try row.bool("settled")
        floorID = try row.optionalInt64("floor_id")
        roomID = try row.optionalInt64("room_id")
        candidateFloorID = try row.optionalInt64("candidate_floor_id")
        candidateRoomID = try row.optionalInt64("candidate_room_id")
        candidateSinceMs = try row.optionalInt64("candidate_since_ms")
        away = try row.bool("away")
        lastPositionID = try row.int64("last_position_id")
        lastTimeMs = try row.int64("last_time_ms")
    }

    static func fetchOne(_ sql: any StoreTransaction, scannerID: ScannerID) throws -> PresenceStateRecord? {
        try sql.row("SELECT \(columns) FROM presence_state WHERE scanner_id = ?", [.text(scannerID.rawValue)]).map(PresenceStateRecord.init(row:))
    }

    static func all(_ sql: any StoreTransaction) throws -> [PresenceStateRecord] {
        try sql.rows("SELECT \(columns) FROM presence_state ORDER BY scanner_id", []).map(PresenceStateRecord.init(row:))
    }

    /// Stores the state, replacing the scanner's former one.
    func save(_ sql: any StoreTransaction) throws {
        try sql.execute("""
            INSERT INTO presence_state (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (scanner_id) DO UPDATE SET
                settled = excluded.settled, floor_id = excluded.floor_id, room_id = excluded.room_id,
                candidate_floor_id = excluded.candidate_floor_id, candidate_room_id = excluded.candidate_room_id,
                candidate_since_ms = excluded.candidate_since_ms, away = excluded.away,
                last_position_id = excluded.last_position_id, last_time_ms = excluded.last_time_ms
            """, [
                .text(scannerID), .boolean(settled), StoreValue(floorID), StoreValue(roomID), StoreValue(candidateFloorID),
                StoreValue(candidateRoomID), StoreValue(candidateSinceMs), .boolean(away), .integer(lastPositionID), .integer(lastTimeMs),
            ])
    }
}
