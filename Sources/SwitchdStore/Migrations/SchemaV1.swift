/// The schema switchd first shipped with, as frozen SQL: never edited, never calling application
/// code, so a fresh database built from it today is the database built on the day it shipped.
enum SchemaV1 {
    /// Floors, rooms and locations. AUTOINCREMENT: a deleted floor's, room's or location's ID is
    /// never given to a new one.
    static let survey = """
        CREATE TABLE floor (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            building TEXT NOT NULL,
            name TEXT NOT NULL,
            level INTEGER NOT NULL
        );
        CREATE TABLE room (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            floor_id INTEGER NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            name TEXT NOT NULL
        );
        CREATE INDEX room_floor ON room(floor_id);
        CREATE TABLE location (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            room_id INTEGER NOT NULL REFERENCES room(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            x REAL NOT NULL,
            y REAL NOT NULL
        );
        CREATE INDEX location_room ON location(room_id);
        """

    /// Scanners and every revision of every switch, so a late upload is tagged with the place it
    /// was scanned at; a deleted room or location leaves the history with NULL there. Ends with
    /// the seed system's one scanner, `default`, which `/scanSwitch/1` talks about, its switch at
    /// revision 1: off, locate mode, not keeping data, changed now.
    static let scannersAndSwitches = """
        CREATE TABLE scanner (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL
        );
        CREATE TABLE switch_revision (
            scanner_id TEXT NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            revision INTEGER NOT NULL CHECK (revision >= 1),
            scanning INTEGER NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('survey', 'locate')),
            room_id INTEGER REFERENCES room(id) ON DELETE SET NULL,
            location_id INTEGER REFERENCES location(id) ON DELETE SET NULL,
            store_data INTEGER NOT NULL,
            stop_after_scans INTEGER,
            stop_after_seconds REAL,
            changed_ms INTEGER NOT NULL,
            scans_completed INTEGER NOT NULL DEFAULT 0,
            stopped_by TEXT CHECK (stopped_by IN ('turnedOff', 'stopCondition')),
            PRIMARY KEY (scanner_id, revision)
        );
        CREATE INDEX switch_revision_room ON switch_revision(room_id);
        CREATE INDEX switch_revision_location ON switch_revision(location_id);
        INSERT INTO scanner (id, name) VALUES ('default', 'default');
        INSERT INTO switch_revision (
            scanner_id, revision, scanning, mode, room_id, location_id, store_data,
            stop_after_scans, stop_after_seconds, changed_ms, scans_completed, stopped_by
        ) VALUES (
            'default', 1, 0, 'locate', NULL, NULL, 0,
            NULL, NULL, CAST(round((julianday('now') - 2440587.5) * 86400000) AS INTEGER), 0, NULL
        );
        """

    /// Batches and their readings. Batches are never deleted, so a replayed batch is recognised
    /// after any delete.
    ///
    /// One measurement row per reading. `address` is the BSSID of a Wi-Fi reading or the device
    /// address of a BLE one, as a 48-bit integer; the Wi-Fi columns (`ssid`, `frequency_mhz`) and
    /// the BLE columns (`beacon_uuid`, `major`, `minor`, `tx_power`) are NULL for the other kind.
    /// `sequence` is AUTOINCREMENT so a sequence number is never given out twice, even after
    /// deletes: feed cursors and `Last-Event-ID` stay meaningful. The only indexes are those the
    /// location and room cascades need; every index costs ingest speed.
    static let measurements = """
        CREATE TABLE batch (
            id INTEGER PRIMARY KEY,
            uuid BLOB NOT NULL UNIQUE,
            scanner_id TEXT NOT NULL REFERENCES scanner(id),
            revision INTEGER NOT NULL,
            received_ms INTEGER NOT NULL,
            stored INTEGER NOT NULL,
            discarded INTEGER NOT NULL
        );
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
        );
        CREATE INDEX measurement_location ON measurement(location_id);
        CREATE INDEX measurement_room ON measurement(room_id);
        """
}
