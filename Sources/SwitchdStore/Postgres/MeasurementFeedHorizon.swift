/// The measurement feed on PostgreSQL without a lock that orders ingest (docs/scale-out.md, "The
/// measurement feed's horizon"): ingest transactions of any instance commit their sequences in any
/// order, and a reader reads the feed (and the batch table, by row ID) only up to a horizon below
/// which no transaction that may still add a row is running.
///
/// The proof, with the identity sequences' default cache of one (numbers are given out in the
/// order asked for): an ingest transaction takes its transaction ID first
/// (``takeTransactionID(in:)``), before any batch ID or sequence; after its last insert it
/// writes a mark: the highest sequence and batch ID it was given, and `next_xid`, the next
/// transaction ID at that moment (its snapshot's `xmax`). Any number at or below the mark's was
/// given before the mark's own, to a transaction that had its ID by then, so below `next_xid`. A
/// reader whose snapshot's `xmin` is at or above `next_xid` has no transaction below it running: each has
/// committed (and is in the snapshot) or rolled back, so every row up to the mark is there to read
/// and none can come later. The horizon is the greatest mark's numbers among such marks; it never
/// goes down, since `xmin` never does and only marks that a greater settled mark covers are pruned.
///
/// Transaction IDs are the whole server's, so a snapshot's own `xmin` is held back by a
/// transaction writing in *any* database of the server: another application's long job, or
/// another test's. The horizon uses ``databaseXmin``, which leaves out the running transactions
/// proven to belong to another database; one it cannot place counts as this database's.
enum MeasurementFeedHorizon {
    /// Gives the transaction its ID now (PostgreSQL gives one at the first row written, which
    /// would be after the batch row's ID was taken).
    static func takeTransactionID(in sql: any StoreTransaction) throws {
        _ = try sql.rows("SELECT pg_current_xact_id()::text AS xid", [])
    }

    /// Writes the transaction's mark, after its last insert; prunes, skipping rows another
    /// transaction is pruning, the settled marks that the greatest settled one covers.
    static func mark(measurementSequence: Int64, batchID: Int64, in sql: any StoreTransaction) throws {
        _ = try sql.execute("""
            WITH settled AS (
                SELECT MAX(measurement_sequence) AS sequence, MAX(batch_id) AS batch_id FROM feed_mark
                WHERE next_xid <= pg_snapshot_xmin(pg_current_snapshot())::text::bigint
            ), pruned AS (
                DELETE FROM feed_mark WHERE id IN (
                    SELECT feed_mark.id FROM feed_mark, settled
                    WHERE feed_mark.next_xid <= pg_snapshot_xmin(pg_current_snapshot())::text::bigint
                        AND feed_mark.measurement_sequence < settled.sequence AND feed_mark.batch_id < settled.batch_id
                    FOR UPDATE OF feed_mark SKIP LOCKED
                )
            )
            INSERT INTO feed_mark (next_xid, measurement_sequence, batch_id)
            VALUES (pg_snapshot_xmax(pg_current_snapshot())::text::bigint, ?, ?)
            """, [.integer(measurementSequence), .integer(batchID)])
    }

    /// The highest sequence and batch row ID a reader may read up to in its snapshot: every
    /// reading and batch at or below them is committed in it, and none can commit later.
    static func horizon(in sql: any StoreTransaction) throws -> (measurementSequence: Int64, batchID: Int64) {
        let row = try sql.row("""
            WITH \(databaseXmin)
            SELECT COALESCE(MAX(measurement_sequence), 0) AS sequence, COALESCE(MAX(batch_id), 0) AS batch_id
            FROM feed_mark, database_xmin WHERE next_xid <= database_xmin.xid
            """, [])
        return (try row?.int64("sequence") ?? 0, try row?.int64("batch_id") ?? 0)
    }

    /// A `WITH` item, `database_xmin(xid)`: the lowest transaction ID running in the statement's
    /// snapshot that may write in this database, or the snapshot's `xmax` when none. A running
    /// transaction is left out only when `pg_locks` (read afresh, not the statistics' cached
    /// view) shows its holder, the same virtual transaction as the lock on its own ID, holding a
    /// lock in another database: a backend is connected to one database and locks only in it or
    /// in the shared catalogs (database 0). One that ended since the snapshot, not yet holding
    /// that lock, or seen locking nothing but shared objects counts as this database's.
    /// `pg_locks` shows 32-bit IDs: the low 32 bits of the snapshot's 64-bit ones.
    static let databaseXmin = """
        database_xmin AS (
            SELECT COALESCE(MIN(running.xid), pg_snapshot_xmax(pg_current_snapshot())::text::bigint) AS xid
            FROM (SELECT xid::text::bigint AS xid FROM pg_snapshot_xip(pg_current_snapshot()) AS xid) AS running
            WHERE running.xid % 4294967296 NOT IN (
                SELECT own.transactionid::text::bigint FROM pg_locks AS own
                JOIN pg_locks AS elsewhere ON elsewhere.virtualtransaction = own.virtualtransaction
                WHERE own.locktype = 'transactionid' AND own.mode = 'ExclusiveLock' AND own.granted
                    AND elsewhere.database <> 0
                    AND elsewhere.database <> (SELECT oid FROM pg_database WHERE datname = current_database())
            )
        )
        """
}
