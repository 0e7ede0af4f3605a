import Foundation
import GRDB
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
    ///
    /// - Throws: what the database throws; nothing of the step is kept then.
    package func derivePresence(limit: Int, step: @escaping PresenceStep) async throws -> PresenceDerivation {
        try await write { db in
            let cursor = try Int64.fetchOne(db, sql: "SELECT after_position_id FROM presence_cursor WHERE id = 1") ?? 0
            let positions = try PositionRecord.filter(PositionRecord.Columns.id > cursor).order(PositionRecord.Columns.id)
                .limit(limit).fetchAll(db).map { try $0.position() }
            var derivation = PresenceDerivation(positionsRead: positions.count, events: [], heard: [:], cursor: positions.last?.id ?? cursor)
            for position in positions {
                let before = try derivation.heard[position.scannerID] ?? Self.presenceState(of: position.scannerID, in: db)
                let (after, events) = step(before, position)
                derivation.heard[position.scannerID] = after
                derivation.events += try Self.insert(events, for: position.scannerID, in: db)
            }
            for (scannerID, state) in derivation.heard {
                try PresenceStateRecord(state, scannerID: scannerID).save(db)
            }
            if let last = positions.last {
                try db.execute(sql: "UPDATE presence_cursor SET after_position_id = ? WHERE id = 1", arguments: [last.id])
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
        try await write { db in
            guard let state = try Self.presenceState(of: scannerID, in: db), state.lastPositionID == lastPositionID else { return [] }
            let (after, events) = step(state)
            try PresenceStateRecord(after, scannerID: scannerID).save(db)
            return try Self.insert(events, for: scannerID, in: db)
        }
    }

    /// Every scanner's presence state.
    package func presenceStates() async throws -> [ScannerID: PresenceState] {
        try await read { db in
            var states: [ScannerID: PresenceState] = [:]
            for record in try PresenceStateRecord.fetchAll(db) {
                states[try storedScannerID(record.scannerID)] = try record.state()
            }
            return states
        }
    }

    /// Up to `limit` events matching `filter` with an ID above `id`, ascending, read in one
    /// snapshot with the highest ID given out.
    package func presenceEvents(matching filter: PresenceEventFilter, after id: Int64, limit: Int) async throws -> FeedSlice<PresenceEvent> {
        try await read { db in
            typealias Columns = PresenceEventRecord.Columns
            var request = PresenceEventRecord.filter(Columns.id > id)
            if let scannerID = filter.scannerID { request = request.filter(Columns.scannerID == scannerID.rawValue) }
            if let kind = filter.kind { request = request.filter(Columns.kind == kind.rawValue) }
            if let since = filter.since { request = request.filter(Columns.timeMs >= since.milliseconds) }
            if let until = filter.until { request = request.filter(Columns.timeMs < until.milliseconds) }
            let items = try request.order(Columns.id).limit(limit).fetchAll(db).map { try $0.event() }
            return FeedSlice(items: items, endOfFeed: try AutoincrementEnd.of(PresenceEventRecord.databaseTableName, in: db))
        }
    }

    /// The highest event ID ever given out (0 before the first).
    package func endOfPresenceEventFeed() async throws -> Int64 {
        try await read { db in try AutoincrementEnd.of(PresenceEventRecord.databaseTableName, in: db) }
    }

    private static func presenceState(of scannerID: ScannerID, in db: Database) throws -> PresenceState? {
        try PresenceStateRecord.fetchOne(db, key: scannerID.rawValue)?.state()
    }

    private static func insert(_ events: [NewPresenceEvent], for scannerID: ScannerID, in db: Database) throws -> [PresenceEvent] {
        try events.map { new in
            var record = PresenceEventRecord(new, scannerID: scannerID)
            try record.insert(db)
            return try record.event()
        }
    }
}
