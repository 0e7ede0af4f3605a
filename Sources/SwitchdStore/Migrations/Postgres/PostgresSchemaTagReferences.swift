/// ``SchemaTagReferences`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaTagReferences {
    static let references = """
        CREATE TABLE tag_reference (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            tag_id bigint NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            floor_id bigint NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            x double precision NOT NULL,
            y double precision NOT NULL,
            z double precision NOT NULL,
            tx_power bigint NOT NULL,
            windows_wanted bigint NOT NULL CHECK (windows_wanted >= 1),
            after_window_end_ms bigint NOT NULL,
            last_window_end_ms bigint,
            created_ms bigint NOT NULL
        );
        CREATE INDEX tag_reference_tag ON tag_reference(tag_id);
        CREATE TABLE tag_reference_window (
            reference_id bigint NOT NULL REFERENCES tag_reference(id) ON DELETE CASCADE,
            window_end_ms bigint NOT NULL,
            scanner_id text COLLATE "C" NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            median_rssi double precision NOT NULL,
            max_rssi bigint NOT NULL,
            PRIMARY KEY (reference_id, window_end_ms, scanner_id)
        );
        CREATE INDEX tag_reference_window_scanner ON tag_reference_window(scanner_id);
        """
}
