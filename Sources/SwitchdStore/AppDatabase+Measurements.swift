import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// Up to `limit` stored readings matching `filter` with a sequence above `sequence`,
    /// ascending, read in one snapshot together with the end of the feed.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when a stored value is not one switchd writes.
    package func measurements(matching filter: MeasurementFilter, after sequence: Int64, limit: Int) async throws -> FeedSlice<StoredMeasurement> {
        try await read { db in
            let query = Self.measurementsQuery(matching: filter, after: sequence, limit: limit)
            let rows = try Row.fetchAll(db.cachedStatement(sql: query.sql), arguments: query.arguments)
            let items = try rows.map { row in try MeasurementRecord(row: row).storedMeasurement(batchUUID: row["batch_uuid"]) }
            return FeedSlice(items: items, endOfFeed: try AutoincrementEnd.of(MeasurementRecord.databaseTableName, in: db))
        }
    }

    /// The statement behind ``measurements(matching:after:limit:)``: readings matching `filter`
    /// past `sequence` in sequence order, each with its batch's UUID. The `emitter=` filter has no
    /// index of its own (see ``SchemaHistoryIndexes``): it walks the feed in sequence order.
    static func measurementsQuery(matching filter: MeasurementFilter, after sequence: Int64, limit: Int) -> (sql: String, arguments: StatementArguments) {
        typealias Columns = MeasurementRecord.Columns
        var conditions = SQLConditions()
        conditions.add("measurement.\(Columns.sequence.name) > ?", sequence)
        conditions.add("measurement.\(Columns.scannerID.name) = ?", filter.scannerID?.rawValue)
        conditions.add("measurement.\(Columns.locationID.name) = ?", filter.locationID)
        conditions.add("measurement.\(Columns.roomID.name) = ?", filter.roomID)
        conditions.add("measurement.\(Columns.kind.name) = ?", filter.kind?.rawValue)
        conditions.add("measurement.\(Columns.timeMs.name) >= ?", filter.since?.milliseconds)
        conditions.add("measurement.\(Columns.timeMs.name) < ?", filter.until?.milliseconds)
        switch filter.emitter {
        case nil:
            break
        case .accessPoint(let bssid):
            conditions.add("measurement.kind = 'wifi' AND measurement.address = ?", Int64(bssid.rawValue))
        case .beacon(let beacon):
            conditions.add("measurement.kind = 'ble' AND measurement.beacon_uuid = ?", beacon.uuid)
            conditions.add("measurement.major = ?", Int(beacon.major))
            conditions.add("measurement.minor = ?", Int(beacon.minor))
        case .address(let address):
            conditions.add("measurement.address = ?", Int64(address.rawValue))
        }
        return ("""
            SELECT measurement.*, batch.uuid AS batch_uuid
            FROM measurement JOIN batch ON batch.id = measurement.batch_id
            WHERE \(conditions.sql)
            ORDER BY measurement.sequence
            LIMIT ?
            """, conditions.arguments + [limit])
    }

    /// The highest sequence ever given out (0 before the first reading); deletes do not lower it.
    package func endOfMeasurementFeed() async throws -> Int64 {
        try await read { db in try AutoincrementEnd.of(MeasurementRecord.databaseTableName, in: db) }
    }
}
