import Foundation
import ScanContract

/// What one derivation step did with one position of a scanner or tag: its new state and the events it settled.
package typealias PresenceStep = @Sendable (_ state: PresenceState?, _ observation: PresenceObservation) -> (PresenceState, [NewPresenceEvent])

/// What ``AppDatabase/derivePresence(of:limit:step:)`` read and stored.
package struct PresenceDerivation: Sendable {
    /// Positions read, 0 when the derivation had caught up.
    package var positionsRead: Int
    /// The events stored, in order.
    package var events: [PresenceEvent]
    /// The state, after this step, of each scanner or tag whose positions were read.
    package var heard: [PresenceSubject: PresenceState]
    /// The last position the derivation has read, now stored as its cursor.
    package var cursor: Int64
}

/// The position feeds presence follows, each with its own cursor in `presence_cursor`.
package enum PresenceSource: Sendable, CaseIterable {
    /// Scanners' positions (`position`).
    case scanners
    /// Tags' positions (`tag_position`).
    case tags

    var cursorColumn: String {
        switch self {
        case .scanners: "after_position_id"
        case .tags: "after_tag_position_id"
        }
    }

    /// Up to `limit` positions after `cursor`, in order, each with whose it is.
    func positions(after cursor: Int64, limit: Int, in sql: any StoreTransaction) throws -> [(PresenceSubject, PresenceObservation)] {
        switch self {
        case .scanners:
            try sql.rows("SELECT \(PositionRecord.columns) FROM position WHERE id > ? ORDER BY id LIMIT ?", [.integer(cursor), StoreValue(limit)])
                .map { row in
                    let position = try PositionRecord(row: row).position()
                    return (.scanner(position.scannerID), PresenceObservation(position))
                }
        case .tags:
            try TagPositionRecord.fetchAll(sql, filter: Self.after(cursor), order: "id", limit: limit).map { record in
                (.tag(record.position.tagID), PresenceObservation(record.position))
            }
        }
    }

    private static func after(_ cursor: Int64) -> StoreConditions {
        var conditions = StoreConditions()
        conditions.add("id > ?", .integer(cursor))
        return conditions
    }
}

extension AppDatabase {
    /// Reads up to `limit` stored positions of `source` after its cursor, in order, passes each
    /// with its scanner's or tag's state through `step`, and stores the new states, the events
    /// and the cursor in one transaction: after a crash the same positions are read again, so no
    /// event is lost or stored twice. Webhook deliveries are queued by the schema in the same
    /// transaction. One body on both databases; on PostgreSQL the `presence` lock makes two
    /// derivations (a leader that lost its lock and its successor) run one after the other.
    ///
    /// - Throws: what the database throws; nothing of the step is kept then.
    package func derivePresence(of source: PresenceSource = .scanners, limit: Int, step: @escaping PresenceStep) async throws -> PresenceDerivation {
        try await writeStatements { sql in
            try sql.lock(Self.presenceLock)
            let cursor = try sql.row("SELECT \(source.cursorColumn) AS cursor FROM presence_cursor WHERE id = 1", [])?.int64("cursor") ?? 0
            let positions = try source.positions(after: cursor, limit: limit, in: sql)
            var derivation = PresenceDerivation(
                positionsRead: positions.count, events: [], heard: [:], cursor: positions.last?.1.positionID ?? cursor
            )
            for (subject, observation) in positions {
                let before = try derivation.heard[subject] ?? PresenceStateRecord.fetchOne(sql, of: subject)?.state()
                let (after, events) = step(before, observation)
                derivation.heard[subject] = after
                derivation.events += try Self.insert(events, of: subject, in: sql)
            }
            for (subject, state) in derivation.heard.sorted(by: { $0.key < $1.key }) {
                try PresenceStateRecord(state, of: subject).save(sql)
            }
            if positions.last != nil {
                try sql.execute("UPDATE presence_cursor SET \(source.cursorColumn) = ? WHERE id = 1", [.integer(derivation.cursor)])
            }
            return derivation
        }
    }

    /// Passes `subject`'s state through `step` and stores what it returns, unless a position
    /// newer than `lastPositionID` has been read for it meanwhile (then nothing changes and the
    /// answer is empty) or the scanner or tag is gone.
    ///
    /// - Throws: what the database throws; nothing is kept then.
    package func updatePresence(
        of subject: PresenceSubject, ifLastPosition lastPositionID: Int64,
        step: @escaping @Sendable (PresenceState) -> (PresenceState, [NewPresenceEvent])
    ) async throws -> [PresenceEvent] {
        try await writeStatements { sql in
            try sql.lock(Self.presenceLock)
            guard let state = try PresenceStateRecord.fetchOne(sql, of: subject)?.state(), state.lastPositionID == lastPositionID else {
                return []
            }
            let (after, events) = step(state)
            try PresenceStateRecord(after, of: subject).save(sql)
            return try Self.insert(events, of: subject, in: sql)
        }
    }

    /// Every scanner's and tag's presence state.
    package func presenceStates() async throws -> [PresenceSubject: PresenceState] {
        try await readStatements { sql in
            var states: [PresenceSubject: PresenceState] = [:]
            for record in try PresenceStateRecord.all(sql) {
                states[record.subject] = try record.state()
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
        conditions.add("tag_id = ?", filter.tagID.map { .integer($0) })
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

    private static func insert(_ events: [NewPresenceEvent], of subject: PresenceSubject, in sql: any StoreTransaction) throws -> [PresenceEvent] {
        try events.map { new in try PresenceEventRecord(new, of: subject).inserted(sql).event() }
    }
}
