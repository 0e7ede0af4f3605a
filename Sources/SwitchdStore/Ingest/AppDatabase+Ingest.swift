import Foundation
import GRDB
import GRDBSQLite
import ScanContract

/// What storing one uploaded batch did.
package struct IngestOutcome: Sendable {
    package var receipt: BatchReceipt
    /// The sequence of the last reading stored, when any was: the measurement feed's new end.
    package var lastSequence: Int64?
    /// A new switch revision made by the batch completing a `{scans: N}` condition.
    package var switchTurnedOff: ScanSwitch?
}

extension AppDatabase {
    /// Stores a validated batch in one transaction: a batch ID seen before is acknowledged as a
    /// duplicate without storing anything; otherwise the batch is remembered, its readings stored
    /// (tagged with the revision's room and location) unless the revision says not to keep them,
    /// and the revision's survey progress moved on, which may turn the switch off.
    ///
    /// Throws, storing nothing: ``StoreError/notFound(_:)`` for an unknown scanner;
    /// ``StoreError/invalidField(_:)`` naming `switchRevision` when it is not a revision of that
    /// scanner or one that was scanning; ``StoreError/conflict(_:)`` when the location a survey
    /// revision surveyed has since been deleted; ``StoreError/storageFull`` when the disk is full.
    package func ingest(_ batch: MeasurementBatch, at now: Date) async throws -> IngestOutcome {
        if case .postgres(let store) = backend { return try await Self.ingest(batch, at: now, on: store) }
        return try await write { db in try Self.ingest(batch, at: now, in: db) }
    }

    /// Stores several validated batches in one transaction, so that one commit (and one fsync)
    /// covers them all. Each batch is stored as ``ingest(_:at:)`` stores it, inside its own
    /// savepoint: a batch refused for its content is rolled back alone and its error is its result,
    /// while the others are kept. Results come in the order of `batches`, and are final only once
    /// this method returns (the commit is done).
    ///
    /// A batch given with a token's ID is stored only if that token is still active, checked
    /// inside the same transaction (``requireActiveToken(_:in:)``); otherwise its result is
    /// ``StoreError/tokenRevoked(_:)``. So an upload let in by a token found active earlier
    /// (switchd's remembered tokens) is refused once the token is revoked, by any process.
    ///
    /// Before each batch after the first, `stopEarly` is asked whether to commit now: when it says
    /// yes (another write waits for the writer), the batches not yet stored are left out, and the
    /// results are fewer than `batches` (never none, for a group that is not empty).
    ///
    /// - Throws: when the transaction itself fails (``StoreError/storageFull`` when the disk is
    ///   full, while storing any batch or at commit, or the database cannot be written): then no
    ///   batch is stored. A full disk fails the whole group, not only the batch that found it:
    ///   SQLite may roll the entire transaction back on SQLITE_FULL, so nothing after it could commit.
    package func ingest(
        _ batches: [(batch: MeasurementBatch, received: Date, token: Int64?)], stopEarly: @escaping @Sendable () -> Bool = { false }
    ) async throws -> [Result<IngestOutcome, any Error>] {
        if case .postgres(let store) = backend { return try await Self.ingest(batches, stopEarly: stopEarly, on: store) }
        return try await write { db in
            var results: [Result<IngestOutcome, any Error>] = []
            for (batch, received, token) in batches {
                if !results.isEmpty, stopEarly() { break }
                do {
                    var outcome: IngestOutcome?
                    try db.inSavepoint {
                        if let token { try Self.requireActiveToken(token, in: SQLiteTransaction(db: db)) }
                        outcome = try Self.ingest(batch, at: received, in: db)
                        return .commit
                    }
                    results.append(.success(outcome!))
                } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
                    throw StoreError.storageFull
                } catch {
                    results.append(.failure(error))
                }
            }
            return results
        }
    }

    private static func ingest(_ batch: MeasurementBatch, at now: Date, in db: Database) throws -> IngestOutcome {
        if let discarded = try BatchRecord.discarded(db, batchID: batch.batchID) {
            let receipt = BatchReceipt(batchID: batch.batchID, stored: 0, duplicate: true, discarded: discarded)
            return IngestOutcome(receipt: receipt, lastSequence: nil, switchTurnedOff: nil)
        }
        let sql = SQLiteTransaction(db: db)
        let current = try requireCurrentSwitch(of: batch.scannerID, in: sql)
        let revision = try scanningRevision(batch.switchRevision, of: batch.scannerID, current: current.revision, in: sql)
        let keeps = revision.keepsReadings

        var batchRecord = BatchRecord(
            uuid: batch.batchID, scannerID: batch.scannerID.rawValue, revision: revision.revision,
            receivedMs: now.milliseconds, stored: 0, discarded: !keeps
        )
        try batchRecord.insert(db)
        let batchRowID = db.lastInsertedRowID

        var stored = 0
        var lastSequence: Int64?
        if keeps {
            (stored, lastSequence) = try insertMeasurements(batch.measurements, batchRowID: batchRowID, revision: revision, in: db)
            if stored > 0 {
                try BatchRecord.setStored(db, id: batchRowID, count: stored)
                if revision.mode == .survey {
                    try placeLateWalkReadings(scannerID: revision.scannerID.rawValue, revision: revision.revision, in: sql)
                }
            }
        }

        let switchTurnedOff = try recordProgress(of: batch, on: current, at: now, in: sql)
        let receipt = BatchReceipt(batchID: batch.batchID, stored: stored, duplicate: false, discarded: !keeps)
        return IngestOutcome(receipt: receipt, lastSequence: lastSequence, switchTurnedOff: switchTurnedOff)
    }

    /// The revision a batch says it was scanned under, if it is one the batch may be stored under
    /// (both databases' ingest ask this).
    static func scanningRevision(_ number: Int, of scannerID: ScannerID, current: Int, in sql: any StoreTransaction) throws -> ScanSwitch {
        guard let revision = try SwitchRevisionRecord.revision(sql, number, of: scannerID) else {
            throw StoreError.invalidField(ValidationError(
                field: "switchRevision", reason: "scanner \(scannerID) has no revision \(number); its switch is at revision \(current)"
            ))
        }
        guard revision.scanning else {
            throw StoreError.invalidField(ValidationError(
                field: "switchRevision", reason: "revision \(number) of scanner \(scannerID) was not scanning"
            ))
        }
        if revision.mode == .survey, revision.locationID == nil {
            throw StoreError.conflict("the location surveyed under revision \(number) of scanner \(scannerID) has been deleted")
        }
        return revision
    }

    /// Inserts the readings with one cached statement, bound through SQLite's C API, the columns
    /// the batch's readings share once (``MeasurementRecord/bindBatchColumns(to:)``, then
    /// ``MeasurementRecord/insertReading(with:in:)`` per reading); a reading whose ID is already stored is
    /// skipped. The stored ones are then added to the emitter summary, one upsert per cell they
    /// touch (``EmitterCellTally``). Returns how many were stored and the sequence of the last one.
    private static func insertMeasurements(
        _ measurements: [ScanContract.Measurement], batchRowID: Int64, revision: ScanSwitch, in db: Database
    ) throws -> (stored: Int, lastSequence: Int64?) {
        let insert = try db.cachedStatement(sql: MeasurementRecord.insertSQL).sqliteStatement
        sqlite3_reset(insert)
        defer { sqlite3_clear_bindings(insert) }
        var tally = EmitterCellTally()
        var stored = 0
        var batchColumnsBound = false
        for measurement in measurements {
            let record = MeasurementRecord(measurement, batchID: batchRowID, revision: revision)
            if !batchColumnsBound {
                record.bindBatchColumns(to: insert)
                batchColumnsBound = true
            }
            guard try record.insertReading(with: insert, in: db) else { continue }
            stored += 1
            tally.add(record)
        }
        // Read once, before the summary's upserts: a skipped duplicate inserts nothing, so the
        // connection's last inserted row is still the last reading stored. (GRDB's
        // `lastInsertedRowID` checks the calling queue first, a dispatch look-up per reading.)
        let lastSequence = stored > 0 ? sqlite3_last_insert_rowid(db.sqliteConnection) : nil
        try tally.save(db)
        return (stored, lastSequence)
    }

    /// Moves the current revision's survey progress to the scans the batch says are complete
    /// (``MeasurementBatch/completedScans``); returns the new revision when that completes a
    /// `{scans: N}` condition. Batches of older revisions change nothing. Both databases' ingest
    /// call this.
    static func recordProgress(of batch: MeasurementBatch, on current: ScanSwitch, at now: Date, in sql: any StoreTransaction) throws -> ScanSwitch? {
        guard batch.completedScans > 0 else { return nil }
        let next = current.recordingScan(batch.completedScans - 1, ofRevision: batch.switchRevision, at: now)
        guard next != current else { return nil }
        var progressed = current
        progressed.scansCompleted = next.scansCompleted
        try SwitchRevisionRecord.updateProgress(sql, of: progressed)
        guard next.revision != current.revision else { return nil }
        try store(next, in: sql)
        return next
    }
}
