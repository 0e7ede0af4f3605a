/// ``SchemaV1`` in PostgreSQL's dialect, under the same identifiers (docs/scale-out.md, "The
/// common dialect"): identity keys for AUTOINCREMENT, `bigint` and `double precision` for
/// SQLite's integers and reals, `boolean` where the records hold a `Bool`, `uuid` for IDs GRDB
/// stores as 16-byte blobs. Times stay integer milliseconds. Frozen once the PostgreSQL backend
/// ships; until then no PostgreSQL database exists to keep.
enum PostgresSchemaV1 {
    static let survey = """
        CREATE TABLE floor (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            building text COLLATE "C" NOT NULL,
            name text COLLATE "C" NOT NULL,
            level bigint NOT NULL
        );
        CREATE TABLE room (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            floor_id bigint NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            name text COLLATE "C" NOT NULL
        );
        CREATE INDEX room_floor ON room(floor_id);
        CREATE TABLE location (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            room_id bigint NOT NULL REFERENCES room(id) ON DELETE CASCADE,
            name text COLLATE "C" NOT NULL,
            x double precision NOT NULL,
            y double precision NOT NULL
        );
        CREATE INDEX location_room ON location(room_id);
        """

    /// The seed scanner `default` and its first revision, as in ``SchemaV1/scannersAndSwitches``.
    static let scannersAndSwitches = """
        CREATE TABLE scanner (
            id text COLLATE "C" PRIMARY KEY NOT NULL,
            name text COLLATE "C" NOT NULL
        );
        CREATE TABLE switch_revision (
            scanner_id text COLLATE "C" NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            revision bigint NOT NULL CHECK (revision >= 1),
            scanning boolean NOT NULL,
            mode text COLLATE "C" NOT NULL CHECK (mode IN ('survey', 'locate')),
            room_id bigint REFERENCES room(id) ON DELETE SET NULL,
            location_id bigint REFERENCES location(id) ON DELETE SET NULL,
            store_data boolean NOT NULL,
            stop_after_scans bigint,
            stop_after_seconds double precision,
            changed_ms bigint NOT NULL,
            scans_completed bigint NOT NULL DEFAULT 0,
            stopped_by text COLLATE "C" CHECK (stopped_by IN ('turnedOff', 'stopCondition')),
            PRIMARY KEY (scanner_id, revision)
        );
        CREATE INDEX switch_revision_room ON switch_revision(room_id);
        CREATE INDEX switch_revision_location ON switch_revision(location_id);
        INSERT INTO scanner (id, name) VALUES ('default', 'default');
        INSERT INTO switch_revision (
            scanner_id, revision, scanning, mode, room_id, location_id, store_data,
            stop_after_scans, stop_after_seconds, changed_ms, scans_completed, stopped_by
        ) VALUES (
            'default', 1, FALSE, 'locate', NULL, NULL, FALSE,
            NULL, NULL, round(extract(epoch FROM now()) * 1000)::bigint, 0, NULL
        );
        """

    /// Batches and readings, as in ``SchemaV1/measurements``: `sequence` is an identity, never
    /// given out twice.
    static let measurements = """
        CREATE TABLE batch (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            uuid uuid NOT NULL UNIQUE,
            scanner_id text COLLATE "C" NOT NULL REFERENCES scanner(id),
            revision bigint NOT NULL,
            received_ms bigint NOT NULL,
            stored bigint NOT NULL,
            discarded boolean NOT NULL
        );
        CREATE TABLE measurement (
            sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            uuid uuid NOT NULL UNIQUE,
            batch_id bigint NOT NULL REFERENCES batch(id),
            scanner_id text COLLATE "C" NOT NULL,
            revision bigint NOT NULL,
            mode text COLLATE "C" NOT NULL CHECK (mode IN ('survey', 'locate')),
            room_id bigint REFERENCES room(id) ON DELETE CASCADE,
            location_id bigint REFERENCES location(id) ON DELETE CASCADE,
            kind text COLLATE "C" NOT NULL CHECK (kind IN ('wifi', 'ble')),
            time_ms bigint NOT NULL,
            rssi bigint NOT NULL,
            scan bigint NOT NULL,
            address bigint NOT NULL,
            ssid text COLLATE "C",
            frequency_mhz bigint,
            beacon_uuid uuid,
            major bigint,
            minor bigint,
            tx_power bigint
        );
        CREATE INDEX measurement_location ON measurement(location_id);
        CREATE INDEX measurement_room ON measurement(room_id);
        """
}
