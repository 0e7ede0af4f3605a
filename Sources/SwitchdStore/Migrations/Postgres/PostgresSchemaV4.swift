/// The `v4-…` migrations (``SchemaEvents``, ``SchemaTags``, ``SchemaMQTT``,
/// ``SchemaSeedCompletions``, ``SchemaTagPresence``) in PostgreSQL's dialect (see
/// ``PostgresSchemaV1``).
enum PostgresSchemaV4 {
    /// As ``SchemaEvents/eventsAndWebhooks``. The presence cursor starts after the last position
    /// ID given out (SQLite reads `sqlite_sequence`; PostgreSQL the identity's sequence, NULL
    /// when none was given). The checks on `presence_event` are named so that
    /// ``missingTagEvents`` can replace them: PostgreSQL alters a table where SQLite rebuilds it.
    static let eventsAndWebhooks = """
        CREATE TABLE presence_event (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            scanner_id text COLLATE "C" NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            kind text COLLATE "C" NOT NULL CONSTRAINT presence_event_kind CHECK (kind IN ('entered', 'left', 'away', 'back')),
            place text COLLATE "C" CHECK (place IN ('room', 'floor')),
            floor_id bigint,
            room_id bigint,
            time_ms bigint NOT NULL,
            position_id bigint,
            CONSTRAINT presence_event_place CHECK ((kind IN ('entered', 'left')) = (place IS NOT NULL))
        );
        CREATE INDEX presence_event_scanner ON presence_event(scanner_id);
        CREATE TABLE presence_state (
            scanner_id text COLLATE "C" PRIMARY KEY NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            settled boolean NOT NULL,
            floor_id bigint,
            room_id bigint,
            candidate_floor_id bigint,
            candidate_room_id bigint,
            candidate_since_ms bigint,
            away boolean NOT NULL,
            last_position_id bigint NOT NULL,
            last_time_ms bigint NOT NULL
        );
        CREATE TABLE presence_cursor (
            id bigint PRIMARY KEY CHECK (id = 1),
            after_position_id bigint NOT NULL
        );
        INSERT INTO presence_cursor (id, after_position_id)
        VALUES (1, COALESCE(pg_sequence_last_value(pg_get_serial_sequence('position', 'id')), 0));
        CREATE TABLE webhook (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            url text COLLATE "C" NOT NULL,
            secret text COLLATE "C" NOT NULL,
            events text COLLATE "C" NOT NULL,
            created_ms bigint NOT NULL
        );
        CREATE TABLE webhook_delivery (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            webhook_id bigint NOT NULL REFERENCES webhook(id) ON DELETE CASCADE,
            event_id bigint NOT NULL REFERENCES presence_event(id) ON DELETE CASCADE,
            state text COLLATE "C" NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
            attempts bigint NOT NULL DEFAULT 0,
            last_status bigint,
            last_error text COLLATE "C",
            last_attempt_ms bigint,
            UNIQUE (webhook_id, event_id)
        );
        CREATE INDEX webhook_delivery_state ON webhook_delivery(webhook_id, state, id);
        CREATE INDEX webhook_delivery_event ON webhook_delivery(event_id);
        CREATE FUNCTION presence_event_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO webhook_delivery (webhook_id, event_id)
            SELECT id, NEW.id FROM webhook WHERE strpos(',' || events || ',', ',' || NEW.kind || ',') > 0;
            RETURN NULL;
        END $$;
        CREATE TRIGGER presence_event_outbox AFTER INSERT ON presence_event FOR EACH ROW EXECUTE FUNCTION presence_event_outbox();
        """

    static let tags = """
        CREATE TABLE tag (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name text COLLATE "C" NOT NULL,
            identity text COLLATE "C" NOT NULL UNIQUE,
            tx_power bigint NOT NULL,
            missing boolean NOT NULL,
            missing_heard boolean NOT NULL DEFAULT FALSE,
            height double precision NOT NULL,
            metadata text COLLATE "C" NOT NULL
        );
        CREATE TABLE scanner_placement (
            scanner_id text COLLATE "C" PRIMARY KEY NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            floor_id bigint NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            x double precision NOT NULL,
            y double precision NOT NULL,
            height double precision NOT NULL,
            path_loss_exponent double precision NOT NULL,
            receive_offset_override double precision,
            estimated_receive_offset double precision,
            calibration_samples bigint NOT NULL DEFAULT 0
        );
        CREATE INDEX scanner_placement_floor ON scanner_placement(floor_id);
        CREATE TABLE sighting (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            scanner_id text COLLATE "C" NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            tag_id bigint REFERENCES tag(id) ON DELETE CASCADE,
            beacon_id bigint REFERENCES beacon(id) ON DELETE CASCADE,
            window_start_ms bigint NOT NULL,
            window_end_ms bigint NOT NULL,
            count bigint NOT NULL CHECK (count >= 1),
            median_rssi double precision NOT NULL,
            max_rssi bigint NOT NULL,
            CHECK ((tag_id IS NULL) <> (beacon_id IS NULL))
        );
        CREATE INDEX sighting_tag_time ON sighting(tag_id, window_end_ms);
        CREATE INDEX sighting_beacon ON sighting(beacon_id, scanner_id);
        CREATE INDEX sighting_scanner ON sighting(scanner_id);
        CREATE TABLE tag_position (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            tag_id bigint NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            time_ms bigint NOT NULL,
            floor_id bigint NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            x double precision NOT NULL,
            y double precision NOT NULL,
            room_id bigint REFERENCES room(id) ON DELETE SET NULL,
            accuracy_metres double precision NOT NULL CHECK (accuracy_metres >= 0),
            method text COLLATE "C" NOT NULL,
            scanners_heard bigint NOT NULL
        );
        CREATE INDEX tag_position_tag ON tag_position(tag_id, id);
        CREATE INDEX tag_position_floor ON tag_position(floor_id);
        CREATE INDEX tag_position_room ON tag_position(room_id);
        CREATE TABLE tag_event (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            tag_id bigint NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            kind text COLLATE "C" NOT NULL CHECK (kind IN ('missingTagHeard')),
            time_ms bigint NOT NULL,
            scanner_id text COLLATE "C" NOT NULL REFERENCES scanner(id) ON DELETE CASCADE
        );
        CREATE INDEX tag_event_tag ON tag_event(tag_id, id);
        CREATE INDEX tag_event_scanner ON tag_event(scanner_id);
        """

    static let mqttOutbox = """
        CREATE TABLE mqtt_outbox (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            topic text COLLATE "C" NOT NULL CHECK (length(topic) > 0),
            payload bytea NOT NULL,
            qos bigint NOT NULL CHECK (qos IN (0, 1)),
            retain boolean NOT NULL,
            created_ms bigint NOT NULL
        );
        CREATE TABLE mqtt_discovered_scanner (
            scanner_id text COLLATE "C" PRIMARY KEY NOT NULL
        );
        CREATE TABLE mqtt_presence_cursor (
            id bigint PRIMARY KEY CHECK (id = 1),
            last_event_id bigint NOT NULL
        );
        """

    static let georeferenceAndAllowLists = """
        CREATE TABLE georeference_point (
            floor_id bigint NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            ordinal bigint NOT NULL CHECK (ordinal >= 0),
            x double precision NOT NULL,
            y double precision NOT NULL,
            latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
            longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
            PRIMARY KEY (floor_id, ordinal)
        );
        ALTER TABLE switch_revision ADD COLUMN allow_bssids text COLLATE "C";
        ALTER TABLE switch_revision ADD COLUMN allow_ssids text COLLATE "C";
        """

    /// As ``SchemaTagPresence/missingTagEvents``: where SQLite copies `presence_event` into a
    /// new table to change its checks, PostgreSQL adds the column and replaces the named checks;
    /// the IDs, their identity and the outbox trigger stay as they are.
    static let missingTagEvents = """
        ALTER TABLE presence_event ADD COLUMN tag_id bigint REFERENCES tag(id) ON DELETE CASCADE;
        ALTER TABLE presence_event DROP CONSTRAINT presence_event_kind;
        ALTER TABLE presence_event ADD CONSTRAINT presence_event_kind
            CHECK (kind IN ('entered', 'left', 'away', 'back', 'missingTagHeard'));
        ALTER TABLE presence_event ADD CONSTRAINT presence_event_tag_kind
            CHECK ((kind = 'missingTagHeard') = (tag_id IS NOT NULL));
        CREATE INDEX presence_event_tag ON presence_event(tag_id);
        """
}
