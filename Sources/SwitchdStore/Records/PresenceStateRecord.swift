import Foundation
import ScanContract

/// A `presence_state` row (a scanner's) or a `tag_presence_state` row (a tag's), read as a
/// ``PresenceState``; written and read through ``StoreTransaction`` in the SQL both databases speak.
struct PresenceStateRecord {
    var subject: PresenceSubject
    var settled: Bool
    var floorID: Int64?
    var roomID: Int64?
    var candidateFloorID: Int64?
    var candidateRoomID: Int64?
    var candidateSinceMs: Int64?
    var away: Bool
    var lastPositionID: Int64
    var lastTimeMs: Int64

    init(_ state: PresenceState, of subject: PresenceSubject) {
        self.subject = subject
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
            guard let floorID else { throw StoreError.corruptRow("presence state of \(subject) is settled on no floor") }
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
    /// The state columns, after the subject's key.
    static let stateColumns = """
        settled, floor_id, room_id, candidate_floor_id, candidate_room_id, candidate_since_ms, away, last_position_id, last_time_ms
        """

    /// The table of `subject`'s kind, its key column and the subject's key.
    private static func table(of subject: PresenceSubject) -> (table: String, key: String, value: StoreValue) {
        switch subject {
        case .scanner(let id): ("presence_state", "scanner_id", .text(id.rawValue))
        case .tag(let id): ("tag_presence_state", "tag_id", .integer(id))
        }
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow, subject: PresenceSubject) throws {
        self.subject = subject
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

    static func fetchOne(_ sql: any StoreTransaction, of subject: PresenceSubject) throws -> PresenceStateRecord? {
        let (table, key, value) = table(of: subject)
        return try sql.row("SELECT \(stateColumns) FROM \(table) WHERE \(key) = ?", [value]).map { try PresenceStateRecord(row: $0, subject: subject) }
    }

    /// Every scanner's state, then every tag's.
    static func all(_ sql: any StoreTransaction) throws -> [PresenceStateRecord] {
        let scanners = try sql.rows("SELECT scanner_id, \(stateColumns) FROM presence_state ORDER BY scanner_id", []).map { row in
            try PresenceStateRecord(row: row, subject: .scanner(storedScannerID(try row.string("scanner_id"))))
        }
        let tags = try sql.rows("SELECT tag_id, \(stateColumns) FROM tag_presence_state ORDER BY tag_id", []).map { row in
            try PresenceStateRecord(row: row, subject: .tag(try row.int64("tag_id")))
        }
        return scanners + tags
    }

    /// Stores the state, replacing the subject's former one.
    func save(_ sql: any StoreTransaction) throws {
        let (table, key, value) = Self.table(of: subject)
        try sql.execute("""
            INSERT INTO \(table) (\(key), \(Self.stateColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (\(key)) DO UPDATE SET
                settled = excluded.settled, floor_id = excluded.floor_id, room_id = excluded.room_id,
                candidate_floor_id = excluded.candidate_floor_id, candidate_room_id = excluded.candidate_room_id,
                candidate_since_ms = excluded.candidate_since_ms, away = excluded.away,
                last_position_id = excluded.last_position_id, last_time_ms = excluded.last_time_ms
            """, [
                value, .boolean(settled), StoreValue(floorID), StoreValue(roomID), StoreValue(candidateFloorID),
                StoreValue(candidateRoomID), StoreValue(candidateSinceMs), .boolean(away), .integer(lastPositionID), .integer(lastTimeMs),
            ])
    }
}
