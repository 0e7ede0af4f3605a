/// The measurement table's SQL, in one place: the migration creates it from these statements,
/// ingest inserts with ``insertSQL``, and the benchmark's raw-SQLite baseline reuses the same
/// text so both sides write the same rows into the same shape.
///
/// One row per reading. `address` is the BSSID of a Wi-Fi reading or the device address of a BLE
/// one, as a 48-bit integer; the Wi-Fi columns (`ssid`, `frequency_mhz`) and the BLE columns
/// (`beacon_uuid`, `major`, `minor`, `tx_power`) are NULL for the other kind. `uuid` and
/// `beacon_uuid` are 16-byte blobs; `time_ms` is milliseconds since 1970 (UTC).
enum MeasurementTable {
    /// `sequence` is AUTOINCREMENT so a sequence number is never given out twice, even after
    /// deletes: feed cursors and `Last-Event-ID` stay meaningful.
    static let createTableSQL = """
        CREATE TABLE measurement (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid BLOB NOT NULL UNIQUE,
            batch_id INTEGER NOT NULL REFERENCES batch(id),
            scanner_id TEXT NOT NULL,
            revision INTEGER NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('survey', 'locate')),
            room_id INTEGER REFERENCES room(id) ON DELETE CASCADE,
            location_id INTEGER REFERENCES location(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('wifi', 'ble')),
            time_ms INTEGER NOT NULL,
            rssi INTEGER NOT NULL,
            scan INTEGER NOT NULL,
            address INTEGER NOT NULL,
            ssid TEXT,
            frequency_mhz INTEGER,
            beacon_uuid BLOB,
            major INTEGER,
            minor INTEGER,
            tx_power INTEGER
        )
        """

    /// Only what deletes and the location/room filters need: the cascades from `location` and
    /// `room` look rows up by these columns. Each index costs ingest speed; scanner, kind and time
    /// filters read forward along `sequence` instead.
    static let createIndexesSQL = [
        "CREATE INDEX measurement_location ON measurement(location_id)",
        "CREATE INDEX measurement_room ON measurement(room_id)",
    ]

    /// Parameters, in order: uuid, batch_id, scanner_id, revision, mode, room_id, location_id,
    /// kind, time_ms, rssi, scan, address, ssid, frequency_mhz, beacon_uuid, major, minor, tx_power.
    ///
    /// A reading whose `uuid` is already stored is skipped, not an error: the changes count says
    /// how many were stored.
    static let insertSQL = """
        INSERT INTO measurement (
            uuid, batch_id, scanner_id, revision, mode, room_id, location_id,
            kind, time_ms, rssi, scan, address, ssid, frequency_mhz, beacon_uuid, major, minor, tx_power
        ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(uuid) DO NOTHING
        """
}
