import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// Up to `limit` stored readings matching `filter` with a sequence above `sequence`,
    /// ascending, read in one snapshot together with the end of the feed.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when a stored value is not one switchd writes.
    package func measurements(matching filter: MeasurementFilter, after sequence: Int64, limit: Int) async throws -> FeedSlice<StoredMeasurement> {
        let query = Self.measurementsQuery(matching: filter, after: sequence, limit: limit)
        if case .postgres(let store) = backend {
            return try await store.transaction(readOnly: true) { sql in try Self.measurements(query, in: sql) }
        }
        return try await read { db in
            let arguments = SQLiteTransaction.arguments(query.values)
            let rows = try Row.fetchAll(db.cachedStatement(sql: query.sql), arguments: arguments)
            let items = try rows.map { row in try MeasurementRecord(row: row).storedMeasurement(batchUUID: row["batch_uuid"]) }
            return FeedSlice(items: items, endOfFeed: try AutoincrementEnd.of(MeasurementRecord.databaseTableName, in: db))
        }
    }

    /// The statement behind ``measurements(matching:after:limit:)``, one text for both databases:
    /// readings matching `filter` past `sequence` in sequence order, each with its batch's UUID.
    /// The `emitter=` filter has no index of its own (see ``SchemaHistoryIndexes``): it walks the
    /// feed in sequence order.
    static func measurementsQuery(matching filter: MeasurementFilter, after sequence: Int64, limit: Int) -> (sql: String, values: [StoreValue]) {
        typealias Columns = MeasurementRecord.Columns
        var conditions = StoreConditions()
        conditions.add("measurement.\(Columns.sequence.name) > ?", .integer(sequence))
        conditions.add("measurement.\(Columns.scannerID.name) = ?", filter.scannerID.map { .text($0.rawValue) })
        conditions.add("measurement.\(Columns.locationID.name) = ?", filter.locationID.map(StoreValue.integer))
        conditions.add("measurement.\(Columns.roomID.name) = ?", filter.roomID.map(StoreValue.integer))
        conditions.add("measurement.\(Columns.kind.name) = ?", filter.kind.map { .text($0.rawValue) })
        conditions.add("measurement.\(Columns.timeMs.name) >= ?", filter.since.map { .integer($0.milliseconds) })
        conditions.add("measurement.\(Columns.timeMs.name) < ?", filter.until.map { .integer($0.milliseconds) })
        switch filter.emitter {
        case nil:
            break
        case .accessPoint(let bssid):
            conditions.add("measurement.kind = 'wifi' AND measurement.address = ?", .integer(Int64(bssid.rawValue)))
        case .beacon(let beacon):
            conditions.add("measurement.kind = 'ble' AND measurement.beacon_uuid = ?", .uuid(beacon.uuid))
            conditions.add("measurement.major = ?", StoreValue(Int(beacon.major)))
            conditions.add("measurement.minor = ?", StoreValue(Int(beacon.minor)))
        case .address(let address):
            conditions.add("measurement.address = ?", .integer(Int64(address.rawValue)))
        }
        return ("""
            SELECT measurement.*, batch.uuid AS batch_uuid
            FROM measurement JOIN batch ON batch.id = measurement.batch_id
            WHERE \(conditions.sql)
            ORDER BY measurement.sequence
            LIMIT ?
            """, conditions.values + [StoreValue(limit)])
    }

    /// The highest sequence ever given out (0 before the first reading); deletes do not lower it.
    package func endOfMeasurementFeed() async throws -> Int64 {
        if case .postgres(let store) = backend {
            return try await store.transaction(readOnly: true) { sql in try Self.endOfMeasurementFeed(in: sql) }
        }
        return try await read { db in try AutoincrementEnd.of(MeasurementRecord.databaseTableName, in: db) }
    }
}
