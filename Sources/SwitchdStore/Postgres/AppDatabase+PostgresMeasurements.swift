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

    /// The highest sequence committed in the snapshot, 0 before the first reading
    /// (``SequencedFeed/end(in:)``).
    static func endOfMeasurementFeed(in sql: any StoreTransaction) throws -> Int64 {
        try SequencedFeed.measurements.end(in: sql)
    }
}
