import Foundation
import ScanContract

extension AppDatabase {
    /// ``measurements(matching:after:limit:)`` through the seam: `query`'s rows up to the feed's
    /// end and that end, in the caller's snapshot (on PostgreSQL, rows past the end are committed
    /// but may yet have a row committed below them: the next read returns them).
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when a stored value is not one switchd writes.
    static func measurements(_ query: (sql: String, values: [StoreValue]), in sql: any StoreTransaction) throws -> FeedSlice<StoredMeasurement> {
        let end = try endOfMeasurementFeed(in: sql)
        let items = try sql.rows(query.sql, query.values).map { row in
            try MeasurementRecord(storeRow: row).storedMeasurement(batchUUID: try row.uuid("batch_uuid"))
        }
        return FeedSlice(items: items.filter { $0.sequence <= end }, endOfFeed: end)
    }

    /// The highest sequence a reader may read up to in its snapshot, 0 before the first reading:
    /// on PostgreSQL the horizon (``MeasurementFeedHorizon``), which deletions do not lower; on
    /// SQLite ``SequencedFeed/end(in:)``.
    static func endOfMeasurementFeed(in sql: any StoreTransaction) throws -> Int64 {
        guard sql is PostgresTransaction else { return try SequencedFeed.measurements.end(in: sql) }
        return try MeasurementFeedHorizon.horizon(in: sql).measurementSequence
    }
}
