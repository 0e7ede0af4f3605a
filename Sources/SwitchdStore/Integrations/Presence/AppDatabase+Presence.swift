import Foundation
import ScanContract

/// What one derivation step did with one scanner's position: its new state and the events it settled.
package typealias PresenceStep = @Sendable (_ state: PresenceState?, _ position: Position) -> (PresenceState, [NewPresenceEvent])

/// What ``AppDatabase/derivePresence(limit:step:)`` read and stored.
package struct PresenceDerivation: Sendable {
    /// Positions read, 0 when the derivation had caught up.
    package var positionsRead: Int
    /// The events stored, in order.
    package var events: [PresenceEvent]
    /// The state, after this step, of each scanner whose positions were read.
    package var heard: [ScannerID: PresenceState]
    /// The last position the derivation has read, now stored as its cursor.
    package var cursor: Int64
}

extension AppDatabase {
    /// Reads up to `limit` stored positions after the derivation's cursor, in order, passes each
    /// with its scanner's state through `step`, and stores the new states, the events and the
    /// cursor in one transaction: after a crash the same positions are read again, so no event
    /// is lost or stored twice. Webhook deliveries are queued by the schema in the same transaction.
    /// One body on both databases; on PostgreSQL the `presence` lock makes two derivations (a
    /// leader that lost its lock and its successor) run one after the other.
    ///
    /// - Throws: what the database throws; nothing of the step is kept then.
    package func derivePresence(limit: Int, step: @escaping PresenceStep) async throws -> PresenceDerivation {
        try await writeStatements { sql in
            try sql.lock(Self.presenceLock)
            let cursor = try sql.row("SELECT after_position_id FROM presence_cursor WHERE id = 1", [])?.int64("after_position_id") ?? 0
            let positions = try sql.rows(
                "SELECT \(PositionRecord.columns) FROM position WHERE id > ? ORDER BY id LIMIT ?", [.integer(cursor), StoreValue(limit)]
            ).map { try PositionRecord(row: $0).position() }
            var derivation = PresenceDerivation(positionsRead: positions.count, events: [], heard: [:], cursor: positions.last?.id ?? cursor)
            for position in positions {
                let before = try derivation.heard[position.scannerID] ?? PresenceStateRecord.fetchOne(sql, scannerID: position.scannerID)?.state()
                let (after, events) = step(before, position)
                derivation.heard[position.scannerID] = after
                derivation.events += try Self.insert(events, for: position.scannerID, in: sql)
            }
            for (scannerID, state) in derivation.heard.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                try PresenceStateRecord(state, scannerID: scannerID).save(sql)
            }
            if let last = positions.last {
                try sql.execute("UPDATE presence_cursor SET after_position_id = ? WHERE id = 1", [.integer(last.id)])
            }
            return derivation
        }
    }

    /// Passes `scannerID`'s state through `step` and stores what it returns, unless a position
    /// newer than `lastPositionID` has been read for the scanner meanwhile (then nothing changes
    /// and the answer is empty) or the scanner is gone.
    ///
    /// - Throws: what the database throws; nothing is kept then.
    package func updatePresence(
        of scannerID: ScannerID, ifLastPosition lastPositionID: Int64,
        step: @escaping @Sendable (PresenceState) -> (PresenceState, [NewPresenceEvent])
    ) async throws -> [PresenceEvent] {
        try await writeStatements { sql in
            try sql.lock(Self.presenceLock)
            guard let state = try PresenceStateRecord.fetchOne(sql, scannerID: scannerID)?.state(), state.lastPositionID == lastPositionID else {
                return []
            }
            let (after, events) = step(state)
            try PresenceStateRecord(after, scannerID: scannerID).save(sql)
            return try Self.insert(events, for: scannerID, in: sql)
        }
    }

    /// Every scanner's presence state.
    package func presenceStates() async throws -> [ScannerID: PresenceState] {
        try await readStatements { sql in
            var states: [ScannerID: PresenceState] = [:]
            for record in try PresenceStateRecord.all(sql) {
                states[try storedScannerID(record.scannerID)] = try record.state()
            }
            return states
        }
    }

    /// Up to `limit` events matching `filter` with an ID above `id`, ascending, read in one
    /// snapshot with the end of the feed (``endOfPresenceEventFeed(in:)``).
    package func presenceEvents(matching filter: PresenceEventFilter, after id: Int64, limit: Int) async throws -> FeedSlice<PresenceEvent> {
        var conditions = StoreConditions()
        conditions.add("id > ?", .integer(id))
        conditions.add("scanner_id = ?", filter.scannerID.map { .text($0.rawValue) })
        conditions.add("kind = ?", filter.kind.map { .text($0.rawValue) })
        conditions.add("time_ms >= ?", filter.since.map { .integer($0.milliseconds) })
        conditions.add("time_ms < ?", filter.until.map { .integer($0.milliseconds) })
        return try await readStatements { [conditions] sql in
            let items = try sql.rows(
                "SELECT \(PresenceEventRecord.columns) FROM presence_event WHERE \(conditions.sql) ORDER BY id LIMIT ?",
                conditions.values + [StoreValue(limit)]
            ).map { try PresenceEventRecord(row: $0).event() }
            return FeedSlice(items: items, endOfFeed: try Self.endOfPresenceEventFeed(in: sql))
        }
    }

    /// The highest event ID ever given out (0 before the first).
    package func endOfPresenceEventFeed() async throws -> Int64 {
        try await readStatements { sql in try Self.endOfPresenceEventFeed(in: sql) }
    }

    /// The presence event feed's name in notifications (`"event <id>"` on ``feedChannel``) and
    /// in `feed_end`.
    package static let presenceEventFeed = SequencedFeed.presenceEvents.name

    /// Held by every transaction that stores a presence event, so that event IDs commit in
    /// order across instances (docs/scale-out.md, "Transactions and serialisation").
    static let presenceEventFeedLock = SequencedFeed.presenceEvents.lock

    /// Held by the derivation's transactions, which read and move one cursor.
    static let presenceLock = "presence"

    /// The highest event ID given out, in the caller's snapshot: SQLite's AUTOINCREMENT counter;
    /// on PostgreSQL the highest ID stored or, when deletions lowered it, the one kept in
    /// `feed_end` (as ``endOfMeasurementFeed(in:)``).
    static func endOfPresenceEventFeed(in sql: any StoreTransaction) throws -> Int64 {
        try SequencedFeed.presenceEvents.end(in: sql)
    }

    private static func insert(_ events: [NewPresenceEvent], for scannerID: ScannerID, in sql: any StoreTransaction) throws -> [PresenceEvent] {
        try events.map { new in try PresenceEventRecord(new, scannerID: scannerID).inserted(sql).event() }
    }
}
