import Foundation

/// ``MeasurementRecord`` through the seam (``StoreTransaction``), for the PostgreSQL driver; the
/// SQLite driver keeps GRDB's cached statement and `Row` on its hot paths.
extension MeasurementRecord {
    /// ``insertSQL`` for `rows` readings in one statement, their values ``storeValues`` one after
    /// another.
    static func insertSQL(rows: Int) -> String {
        let one = "(\(insertedColumns.map { _ in "?" }.joined(separator: ", ")))"
        return """
            INSERT INTO measurement (\(insertedColumns.map(\.rawValue).joined(separator: ", ")))
            VALUES \(Array(repeating: one, count: rows).joined(separator: ", "))
            ON CONFLICT(uuid) DO NOTHING
            """
    }

    /// ``insertArguments`` as the seam's values, in the order of ``insertedColumns``.
    var storeValues: [StoreValue] {
        [
            .uuid(uuid), .integer(batchID), .text(scannerID), StoreValue(revision), .text(mode), StoreValue(roomID), StoreValue(locationID),
            .text(kind), .integer(timeMs), StoreValue(rssi), StoreValue(scan), .integer(address), StoreValue(ssid), StoreValue(frequencyMHz),
            StoreValue(beaconUUID), StoreValue(major), StoreValue(minor), StoreValue(txPower),
        ]
    }

    /// Decodes a row read through the seam, as ``init(row:)`` decodes GRDB's.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` naming a column missing or of another kind.
    init(storeRow row: StoreRow) throws {
        typealias Key = CodingKeys
        sequence = try row.optionalInt64(Key.sequence.rawValue)
        uuid = try row.uuid(Key.uuid.rawValue)
        batchID = try row.int64(Key.batchID.rawValue)
        scannerID = try row.string(Key.scannerID.rawValue)
        revision = try row.int(Key.revision.rawValue)
        mode = try row.string(Key.mode.rawValue)
        roomID = try row.optionalInt64(Key.roomID.rawValue)
        locationID = try row.optionalInt64(Key.locationID.rawValue)
        kind = try row.string(Key.kind.rawValue)
        timeMs = try row.int64(Key.timeMs.rawValue)
        rssi = try row.int(Key.rssi.rawValue)
        scan = try row.int(Key.scan.rawValue)
        address = try row.int64(Key.address.rawValue)
        ssid = try row.optionalString(Key.ssid.rawValue)
        frequencyMHz = try row.optionalInt(Key.frequencyMHz.rawValue)
        beaconUUID = try row.optionalUUID(Key.beaconUUID.rawValue)
        major = try row.optionalInt(Key.major.rawValue)
        minor = try row.optionalInt(Key.minor.rawValue)
        txPower = try row.optionalInt(Key.txPower.rawValue)
    }
}

extension EmitterCellTally {
    /// Adds the tally to `emitter_cell` in one upsert per 1,000 cells (each cell once per
    /// statement, as PostgreSQL's `ON CONFLICT DO UPDATE` requires), in the caller's transaction:
    /// the same arithmetic as the SQLite upsert, in PostgreSQL's dialect (the existing row's
    /// columns named with the table, `GREATEST`/`LEAST` for SQLite's two-argument `MAX`/`MIN`).
    /// Throws what the driver throws; the caller's transaction or savepoint then takes back
    /// whatever was saved.
    func save(_ sql: any StoreTransaction) throws {
        let rows = storeRows
        var start = 0
        while start < rows.count {
            let chunk = rows[start ..< min(start + 1_000, rows.count)]
            start += chunk.count
            try sql.execute(Self.postgresUpsertSQL(rows: chunk.count), chunk.flatMap { $0 })
        }
    }

    private static func postgresUpsertSQL(rows: Int) -> String {
        let one = "(\(Array(repeating: "?", count: 14).joined(separator: ", ")))"
        return """
            INSERT INTO emitter_cell (
                kind, address, beacon_uuid, major, minor, mode, room_id, location_id,
                readings, rssi_sum, max_rssi, first_ms, last_ms, last_ssid
            ) VALUES \(Array(repeating: one, count: rows).joined(separator: ", "))
            ON CONFLICT (kind, address, beacon_uuid, major, minor, mode, room_id, location_id) DO UPDATE SET
                readings = emitter_cell.readings + excluded.readings,
                rssi_sum = emitter_cell.rssi_sum + excluded.rssi_sum,
                max_rssi = GREATEST(emitter_cell.max_rssi, excluded.max_rssi),
                first_ms = LEAST(emitter_cell.first_ms, excluded.first_ms),
                last_ssid = CASE WHEN excluded.last_ms > emitter_cell.last_ms THEN excluded.last_ssid ELSE emitter_cell.last_ssid END,
                last_ms = GREATEST(emitter_cell.last_ms, excluded.last_ms)
            """
    }
}
