/// Beacon and tag telemetry and health: the `batteryLow` and `beaconSilent` events, as frozen
/// SQL (see ``SchemaV1``).
enum SchemaBeaconTelemetry {
    /// `emitter_telemetry`: per tag or beacon (exactly one), the latest Eddystone-TLM telemetry a
    /// scanner forwarded (when the scanner heard it, which scanner, battery mV and temperature
    /// when measured, advertisement count, uptime) and whether its battery is low (set by the
    /// report that crossed the threshold, cleared above it plus the hysteresis). Goes with its
    /// tag, beacon or scanner.
    ///
    /// `beacon_health`: per beacon found silent or faded, the end of its last sighting while it
    /// is silent (null once heard again) and whether it is faded. `sighting_beacon_time` finds a
    /// beacon's last sightings.
    ///
    /// `presence_event` rebuilt with `beacon_id` (a beacon's events) and the kinds `batteryLow`
    /// (a tag or a beacon), `beaconSilent` and `beaconFaded` (a beacon), neither with a scanner or a place, copied as in ``SchemaScannerHealth`` (IDs and
    /// the AUTOINCREMENT sequence kept, foreign keys off while the migrator runs it); its indexes
    /// are made again, and its outbox trigger also sends a beacon's events to webhooks subscribed
    /// to `beacons`.
    static let telemetry = """
        CREATE TABLE emitter_telemetry (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tag_id INTEGER UNIQUE REFERENCES tag(id) ON DELETE CASCADE,
            beacon_id INTEGER UNIQUE REFERENCES beacon(id) ON DELETE CASCADE,
            scanner_id TEXT NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            reported_ms INTEGER NOT NULL,
            battery_mv INTEGER,
            temperature REAL,
            advertisement_count INTEGER NOT NULL,
            uptime_s REAL NOT NULL,
            battery_low INTEGER NOT NULL CHECK (battery_low IN (0, 1)),
            CHECK ((tag_id IS NULL) <> (beacon_id IS NULL))
        );
        CREATE TABLE beacon_health (
            beacon_id INTEGER PRIMARY KEY NOT NULL REFERENCES beacon(id) ON DELETE CASCADE,
            silent_last_heard_ms INTEGER,
            faded INTEGER NOT NULL CHECK (faded IN (0, 1))
        );
        CREATE INDEX sighting_beacon_time ON sighting(beacon_id, window_end_ms);
        CREATE TABLE presence_event_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            scanner_id TEXT REFERENCES scanner(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('entered', 'left', 'away', 'back', 'missingTagHeard', 'scannerOffline', 'scannerOnline', 'batteryLow', 'beaconSilent', 'beaconFaded')),
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
                ELSE (scanner_id IS NULL) <> (tag_id IS NULL) AND beacon_id IS NULL END)
        );
        INSERT INTO presence_event_new (id, scanner_id, kind, place, floor_id, room_id, time_ms, position_id, tag_id)
        SELECT id, scanner_id, kind, place, floor_id, room_id, time_ms, position_id, tag_id FROM presence_event;
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
