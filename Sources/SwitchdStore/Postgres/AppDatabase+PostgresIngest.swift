import Foundation
import ScanContract

extension AppDatabase {
    /// ``ingest(_:at:)`` on PostgreSQL: one batch, one transaction.
    static func ingest(_ batch: MeasurementBatch, at now: Date, on store: PostgresStore) async throws -> IngestOutcome {
        try await store.transaction(readOnly: false) { sql in
            try takeLocks(for: [batch], in: sql)
            var tally = EmitterCellTally()
            let (outcome, batchRowID) = try ingestOnPostgres(batch, at: now, tally: &tally, in: sql)
            try tally.save(sql)
            try markFeed([(outcome, batchRowID)], in: sql)
            return outcome
        }
    }

    /// ``ingest(_:stopEarly:)`` on PostgreSQL: the group in one transaction, each batch inside a
    /// savepoint of its own, so a batch refused for its content (a ``StoreError``, or
    /// ``NotYetOnPostgres``) is rolled back alone and its error is its result.
    ///
    /// - Throws: the driver's error (the server gone, a statement failing for another reason than
    ///   the batch's content) or ``StoreError/storageFull``: then no batch of the group is stored.
    ///   A serialisation failure or deadlock runs the whole group again (``PostgresStore``).
    static func ingest(
        _ batches: [(batch: MeasurementBatch, received: Date, token: Int64?)], stopEarly: @escaping @Sendable () -> Bool, on store: PostgresStore
    ) async throws -> [Result<IngestOutcome, any Error>] {
        try await store.transaction(readOnly: false) { sql in
            try takeLocks(for: batches.map(\.batch), in: sql)
            var results: [Result<IngestOutcome, any Error>] = []
            var stored: [(IngestOutcome, Int64?)] = []
            var groupTally = EmitterCellTally()
            for (batch, received, token) in batches {
                if !results.isEmpty, stopEarly() { break }
                try sql.execute("SAVEPOINT ingest_batch", [])
                do {
                    if let token { try requireActiveToken(token, in: sql) }
                    var tally = EmitterCellTally()
                    let (outcome, batchRowID) = try ingestOnPostgres(batch, at: received, tally: &tally, in: sql)
                    try sql.execute("RELEASE SAVEPOINT ingest_batch", [])
                    groupTally.merge(tally)
                    results.append(.success(outcome))
                    stored.append((outcome, batchRowID))
                } catch let error where error is NotYetOnPostgres || (error as? StoreError).map({ $0 != .storageFull }) == true {
                    try sql.execute("ROLLBACK TO SAVEPOINT ingest_batch", [])
                    results.append(.failure(error))
                }
            }
            // The summary's cells last, sorted: the rows other instances' ingest may wait for
            // are held for the shortest time, and taken in one order.
            try groupTally.save(sql)
            try markFeed(stored, in: sql)
            return results
        }
    }

    /// The channel each ingest transaction announces the measurement feed's new end on:
    /// `"measurement <sequence>"` (docs/scale-out.md, "Fan-out across instances").
    package static let feedChannel = "floorscan_feed"

    /// Takes no lock that orders ingest: transactions of every instance give out and commit
    /// sequence numbers in any order, and readers read up to the feed's horizon
    /// (``MeasurementFeedHorizon``), for which the transaction takes its ID first. When a batch was
    /// scanned under a walk's revision, the survey's lock comes first
    /// (``walkBatchesNeedTheSurveyLock(_:in:)``): the lock order is survey, switch.
    private static func takeLocks(for batches: [MeasurementBatch], in sql: any StoreTransaction) throws {
        if try walkBatchesNeedTheSurveyLock(batches, in: sql) {
            try sql.lock(surveyLock)
        }
        try MeasurementFeedHorizon.takeTransactionID(in: sql)
    }

    /// Writes the transaction's mark on the measurement feed (``MeasurementFeedHorizon``) when it
    /// stored a batch row: the highest sequence and batch row ID it was given.
    private static func markFeed(_ stored: [(outcome: IngestOutcome, batchRowID: Int64?)], in sql: any StoreTransaction) throws {
        guard let batchRowID = stored.compactMap(\.batchRowID).max() else { return }
        let sequence = stored.compactMap(\.outcome.lastSequence).max() ?? 0
        try MeasurementFeedHorizon.mark(measurementSequence: sequence, batchID: batchRowID, in: sql)
    }

    /// The measurement feed's name in notifications and in `feed_end`.
    static let measurementFeed = SequencedFeed.measurements.name

    /// One batch as ``ingest(_:at:in:)`` (SQLite) stores it, with the same checks in the same order
    /// and the same answers, through the seam: a replayed batch ID is a duplicate; the readings
    /// go in with one multi-row insert that skips IDs already stored; the readings of a walk that
    /// has arrived are placed on its segment (``placeLateWalkReadings(scannerID:revision:in:)``).
    /// Returns the outcome and the batch's new row ID (nil for a duplicate).
    /// The stored readings are added to `tally`, which the caller saves once for the transaction.
    private static func ingestOnPostgres(
        _ batch: MeasurementBatch, at now: Date, tally: inout EmitterCellTally, in sql: any StoreTransaction
    ) throws -> (IngestOutcome, Int64?) {
        if let discarded = try discardedBatch(batch.batchID, in: sql) {
            return (duplicate(batch, discarded: discarded), nil)
        }
        if batch.completedScans > 0 {
            // The progress it records decides on the scanner's next revision, as a flip does.
            try sql.lock(switchLock(batch.scannerID))
        }
        let current = try requireCurrentSwitch(of: batch.scannerID, in: sql)
        let revision = try scanningRevision(batch.switchRevision, of: batch.scannerID, current: current.revision, in: sql)
        let keeps = revision.keepsReadings
        let inserted = try sql.row("""
            INSERT INTO batch (uuid, scanner_id, revision, received_ms, stored, discarded) VALUES (?, ?, ?, ?, 0, ?)
            ON CONFLICT (uuid) DO NOTHING RETURNING id
            """, [
                .uuid(batch.batchID), .text(batch.scannerID.rawValue), .integer(Int64(revision.revision)), .integer(now.milliseconds),
                .boolean(!keeps),
            ])
        guard let batchRowID = try inserted?.int64("id") else {
            // Committed meanwhile by another instance (the unique ID decided): a duplicate.
            return (duplicate(batch, discarded: try discardedBatch(batch.batchID, in: sql) ?? !keeps), nil)
        }

        var stored = 0
        var lastSequence: Int64?
        if keeps {
            (stored, lastSequence) = try insertMeasurements(batch.measurements, batchRowID: batchRowID, revision: revision, tally: &tally, in: sql)
            if stored > 0 {
                try sql.execute("UPDATE batch SET stored = ? WHERE id = ?", [.integer(Int64(stored)), .integer(batchRowID)])
                if revision.mode == .survey {
                    try placeLateWalkReadings(scannerID: revision.scannerID.rawValue, revision: revision.revision, in: sql)
                }
            }
        }
        if let lastSequence {
            try sql.notify(feedChannel, "measurement \(lastSequence)")
        }
        let switchTurnedOff = try recordProgress(of: batch, on: current, at: now, in: sql)
        let receipt = BatchReceipt(batchID: batch.batchID, stored: stored, duplicate: false, discarded: !keeps)
        return (IngestOutcome(receipt: receipt, lastSequence: lastSequence, switchTurnedOff: switchTurnedOff), batchRowID)
    }

    private static func discardedBatch(_ id: UUID, in sql: any StoreTransaction) throws -> Bool? {
        try sql.row("SELECT discarded FROM batch WHERE uuid = ?", [.uuid(id)]).map { try $0.bool("discarded") }
    }

    private static func duplicate(_ batch: MeasurementBatch, discarded: Bool) -> IngestOutcome {
        let receipt = BatchReceipt(batchID: batch.batchID, stored: 0, duplicate: true, discarded: discarded)
        return IngestOutcome(receipt: receipt, lastSequence: nil, switchTurnedOff: nil)
    }

    /// Readings per insert statement: up to a batch's 10,000 as arrays on PostgreSQL
    /// (``MeasurementRecord/unnestInsertSQL``), so one statement a batch.
    static let readingsPerInsert = MeasurementBatch.maxMeasurements

    /// Inserts `records` in one statement, skipping IDs already stored; the rows stored, each with
    /// its `sequence` and `uuid`.
    private static func insertRows(_ records: [MeasurementRecord], in sql: any StoreTransaction) throws -> [StoreRow] {
        if let postgres = sql as? PostgresTransaction {
            return try postgres.rows(numbered: MeasurementRecord.unnestInsertSQL, binds: MeasurementRecord.unnestBindings(records))
        }
        return try sql.rows(MeasurementRecord.insertSQL(rows: records.count) + " RETURNING sequence, uuid", records.flatMap(\.storeValues))
    }

    /// Inserts the readings, ``readingsPerInsert`` to a statement, skipping IDs already stored
    /// (as SQLite's `ON CONFLICT(uuid) DO NOTHING`, also for an ID repeated inside the batch), and
    /// adds the stored ones to `tally` (``EmitterCellTally``). Returns how many were stored and
    /// the highest sequence given.
    private static func insertMeasurements(
        _ measurements: [ScanContract.Measurement], batchRowID: Int64, revision: ScanSwitch, tally: inout EmitterCellTally,
        in sql: any StoreTransaction
    ) throws -> (stored: Int, lastSequence: Int64?) {
        var stored = 0
        var lastSequence: Int64?
        var start = 0
        while start < measurements.count {
            let records = measurements[start ..< min(start + readingsPerInsert, measurements.count)].map {
                MeasurementRecord($0, batchID: batchRowID, revision: revision)
            }
            start += records.count
            let rows = try insertRows(records, in: sql)
            var storedIDs: Set<UUID> = []
            for row in rows {
                storedIDs.insert(try row.uuid("uuid"))
                lastSequence = max(lastSequence ?? 0, try row.int64("sequence"))
            }
            stored += storedIDs.count
            for record in records where storedIDs.remove(record.uuid) != nil {
                tally.add(record)
            }
        }
        return (stored, lastSequence)
    }
}
