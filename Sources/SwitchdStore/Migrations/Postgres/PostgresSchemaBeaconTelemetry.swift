/// ``SchemaBeaconTelemetry`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaBeaconTelemetry {
    /// As ``SchemaBeaconTelemetry/telemetry``; PostgreSQL adds `beacon_id` and replaces the named
    /// checks of `presence_event` and the outbox trigger's function in place where SQLite copies
    /// the table.
    static let telemetry = """
        CREATE TABLE emitter_telemetry (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            tag_id bigint UNIQUE REFERENCES tag(id) ON DELETE CASCADE,
            beacon_id bigint UNIQUE REFERENCES beacon(id) ON DELETE CASCADE,
            scanner_id text COLLATE "C" NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            reported_ms bigint NOT NULL,
            battery_mv bigint,
            temperature double precision,
            advertisement_count bigint NOT NULL,
            uptime_s double precision NOT NULL,
            battery_low boolean NOT NULL,
            CHECK ((tag_id IS NULL) <> (beacon_id IS NULL))
        );
        CREATE TABLE beacon_health (
            beacon_id bigint PRIMARY KEY NOT NULL REFERENCES beacon(id) ON DELETE CASCADE,
            silent_last_heard_ms bigint,
            faded boolean NOT NULL
        );
        CREATE INDEX sighting_beacon_time ON sighting(beacon_id, window_end_ms);
        ALTER TABLE presence_event ADD COLUMN beacon_id bigint REFERENCES beacon(id) ON DELETE CASCADE;
        CREATE INDEX presence_event_beacon ON presence_event(beacon_id);
        ALTER TABLE presence_event DROP CONSTRAINT presence_event_kind;
        ALTER TABLE presence_event ADD CONSTRAINT presence_event_kind
            CHECK (kind IN ('entered', 'left', 'away', 'back', 'missingTagHeard', 'scannerOffline', 'scannerOnline', 'batteryLow', 'beaconSilent', 'beaconFaded'));
        ALTER TABLE presence_event DROP CONSTRAINT presence_event_subject;
        ALTER TABLE presence_event ADD CONSTRAINT presence_event_subject
            CHECK (CASE WHEN kind = 'missingTagHeard' THEN scanner_id IS NOT NULL AND tag_id IS NOT NULL AND beacon_id IS NULL
                WHEN kind IN ('scannerOffline', 'scannerOnline') THEN scanner_id IS NOT NULL AND tag_id IS NULL AND beacon_id IS NULL
                WHEN kind = 'batteryLow' THEN scanner_id IS NULL AND (tag_id IS NULL) <> (beacon_id IS NULL)
                WHEN kind IN ('beaconSilent', 'beaconFaded') THEN scanner_id IS NULL AND tag_id IS NULL AND beacon_id IS NOT NULL
                ELSE (scanner_id IS NULL) <> (tag_id IS NULL) AND beacon_id IS NULL END);
        CREATE OR REPLACE FUNCTION presence_event_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO webhook_delivery (webhook_id, event_id)
            SELECT id, NEW.id FROM webhook
            WHERE strpos(',' || events || ',', ',' || NEW.kind || ',') > 0
                AND ((NEW.scanner_id IS NOT NULL AND strpos(',' || subjects || ',', ',scanners,') > 0)
                    OR (NEW.tag_id IS NOT NULL AND strpos(',' || subjects || ',', ',tags,') > 0)
                    OR (NEW.beacon_id IS NOT NULL AND strpos(',' || subjects || ',', ',beacons,') > 0));
            RETURN NULL;
        END $$;
        """
}
