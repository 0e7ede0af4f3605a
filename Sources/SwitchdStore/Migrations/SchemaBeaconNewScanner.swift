/// The `beaconNewScanner` event, as frozen SQL (see ``SchemaV1``).
enum SchemaBeaconNewScanner {
    /// `beacon_hearer`: per registered beacon and placed scanner that heard it, the end of the
    /// latest sighting the check saw (``AppDatabase/markNewBeaconScanners(after:)``).
    /// `beacon_hearer_check`: one row, the highest sighting ID the check has read.
    ///
    /// `presence_event` rebuilt with the kind `beaconNewScanner` (a scanner and a beacon), copied
    /// as in ``SchemaBeaconTelemetry`` (IDs, `beacon_id` and the AUTOINCREMENT sequence kept);
    /// its indexes and outbox trigger are made again as they were.
    static let newScanner = """
        CREATE TABLE beacon_hearer (
            beacon_id INTEGER NOT NULL REFERENCES beacon(id) ON DELETE CASCADE,
            scanner_id TEXT NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            last_heard_ms INTEGER NOT NULL,
            PRIMARY KEY (beacon_id, scanner_id)
        );
        CREATE TABLE beacon_hearer_check (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            checked_sighting_id INTEGER NOT NULL
        );
        CREATE TABLE presence_event_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            scanner_id TEXT REFERENCES scanner(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('entered', 'left', 'away', 'back', 'missingTagHeard', 'scannerOffline', 'scannerOnline', 'batteryLow', 'beaconSilent', 'beaconFaded', 'beaconNewScanner')),
            place TEXT CHECK (place IN ('room', 'floor')),
            floor_id INTEGER,
            room_id INTEGER,
            time_ms INTEGER NOT NULL,
            position_id INTEGER,
            tag_id INTEGER REFERENCES tag(id) ON DELETE CASCADE,
            beacon_id INTEGER REFERENCES beacon(id) ON DELETE CASCADE,
            CHECK ((kind IN ('entered', 'left')) = (place IS NOT NULL)),
            CHECK (CASE WHEN kind = 'missingTagHeard' THEN scanner_id IS NOT NULL AND tag_id IS NOT NULL AND beacon_id IS NULL
                WHEN kind IN ('scannerOffline', 'scannerOnline') THEN scanner_id IS NOT NULL AND tag_id IS NULL AND beacon_id IS NULL
                WHEN kind = 'batteryLow' THEN scanner_id IS NULL AND (tag_id IS NULL) <> (beacon_id IS NULL)
                WHEN kind IN ('beaconSilent', 'beaconFaded') THEN scanner_id IS NULL AND tag_id IS NULL AND beacon_id IS NOT NULL
                WHEN kind = 'beaconNewScanner' THEN scanner_id IS NOT NULL AND tag_id IS NULL AND beacon_id IS NOT NULL
                ELSE (scanner_id IS NULL) <> (tag_id IS NULL) AND beacon_id IS NULL END)
        );
        INSERT INTO presence_event_new (id, scanner_id, kind, place, floor_id, room_id, time_ms, position_id, tag_id, beacon_id)
        SELECT id, scanner_id, kind, place, floor_id, room_id, time_ms, position_id, tag_id, beacon_id FROM presence_event;
        DELETE FROM sqlite_sequence WHERE name = 'presence_event_new';
        INSERT INTO sqlite_sequence (name, seq) SELECT 'presence_event_new', seq FROM sqlite_sequence WHERE name = 'presence_event';
        DROP TABLE presence_event;
        ALTER TABLE presence_event_new RENAME TO presence_event;
        CREATE INDEX presence_event_scanner ON presence_event(scanner_id);
        CREATE INDEX presence_event_tag ON presence_event(tag_id);
        CREATE INDEX presence_event_beacon ON presence_event(beacon_id);
        CREATE TRIGGER presence_event_outbox AFTER INSERT ON presence_event BEGIN
            INSERT INTO webhook_delivery (webhook_id, event_id)
            SELECT id, NEW.id FROM webhook
            WHERE instr(',' || events || ',', ',' || NEW.kind || ',') > 0
                AND ((NEW.scanner_id IS NOT NULL AND instr(',' || subjects || ',', ',scanners,') > 0)
                    OR (NEW.tag_id IS NOT NULL AND instr(',' || subjects || ',', ',tags,') > 0)
                    OR (NEW.beacon_id IS NOT NULL AND instr(',' || subjects || ',', ',beacons,') > 0));
        END;
        """
}
