import Foundation
import ScanContract

extension AppDatabase {
    /// ``measurements(matching:after:limit:)`` through the seam: `query`'s rows and the feed's
    /// end, in the caller's snapshot.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when a stored value is not one switchd writes.
    static func measurements(_ query: (sql: String, values: [StoreValue]), in sql: any StoreTransaction) throws -> FeedSlice<StoredMeasurement> {
        let items = try sql.rows(query.sql, query.values).map { row in
            try MeasurementRecord(storeRow: row).storedMeasurement(batchUUID: try row.uuid("batch_uuid"))
        }
        return FeedSlice(items: items, endOfFeed: try endOfMeasurementFeed(in: sql))
    }

    /// The highest sequence committed in the snapshot, 0 before the first reading. PostgreSQL's
    /// identity sequence is not transactional (it counts numbers given to transactions still
    /// running), so the end is read from the rows: ingest commits sequences in order under its
    /// feed lock, so no row can later appear below it. Deleting the newest readings would lower
    /// that, so the survey deletions keep the former highest in `feed_end`
    /// (``keepingMeasurementFeedEnd(in:_:)``), and the end is the greater of the two; retention
    /// and deleting a scanner, which do not run on PostgreSQL yet, must do the same.
    static func endOfMeasurementFeed(in sql: any StoreTransaction) throws -> Int64 {
        try FeedEnd.of(table: MeasurementRecord.databaseTableName, key: "sequence", feed: measurementFeed, in: sql)
    }
}
