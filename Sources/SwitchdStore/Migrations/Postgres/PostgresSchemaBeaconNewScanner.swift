/// ``SchemaBeaconNewScanner`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaBeaconNewScanner {
    /// As ``SchemaBeaconNewScanner/newScanner``; PostgreSQL replaces the named checks of
    /// `presence_event` in place where SQLite copies the table.
    static let newScanner = """
        CREATE TABLE beacon_hearer (
            beacon_id bigint NOT NULL REFERENCES beacon(id) ON DELETE CASCADE,
            scanner_id text COLLATE "C" NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            last_heard_ms bigint NOT NULL,
            PRIMARY KEY (beacon_id, scanner_id)
        );
        CREATE TABLE beacon_hearer_check (
            id bigint PRIMARY KEY CHECK (id = 1),
            checked_sighting_id bigint NOT NULL
        );
        ALTER TABLE presence_event DROP CONSTRAINT presence_event_kind;
        ALTER TABLE presence_event ADD CONSTRAINT presence_event_kind
            CHECK (kind IN ('entered', 'left', 'away', 'back', 'missingTagHeard', 'scannerOffline', 'scannerOnline', 'batteryLow', 'beaconSilent', 'beaconFaded', 'beaconNewScanner'));
        ALTER TABLE presence_event DROP CONSTRAINT presence_event_subject;
        ALTER TABLE presence_event ADD CONSTRAINT presence_event_subject
            CHECK (CASE WHEN kind = 'missingTagHeard' THEN scanner_id IS NOT NULL AND tag_id IS NOT NULL AND beacon_id IS NULL
                WHEN kind IN ('scannerOffline', 'scannerOnline') THEN scanner_id IS NOT NULL AND tag_id IS NULL AND beacon_id IS NULL
                WHEN kind = 'batteryLow' THEN scanner_id IS NULL AND (tag_id IS NULL) <> (beacon_id IS NULL)
                WHEN kind IN ('beaconSilent', 'beaconFaded') THEN scanner_id IS NULL AND tag_id IS NULL AND beacon_id IS NOT NULL
                WHEN kind = 'beaconNewScanner' THEN scanner_id IS NOT NULL AND tag_id IS NULL AND beacon_id IS NOT NULL
                ELSE (scanner_id IS NULL) <> (tag_id IS NULL) AND beacon_id IS NULL END);
        """
}
