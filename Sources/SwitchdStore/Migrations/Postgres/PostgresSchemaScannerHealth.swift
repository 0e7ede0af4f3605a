/// ``SchemaScannerHealth`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaScannerHealth {
    /// As ``SchemaScannerHealth/health``; PostgreSQL replaces the named checks of
    /// `presence_event` in place where SQLite copies the table.
    static let health = """
        CREATE TABLE scanner_health (
            scanner_id text COLLATE "C" PRIMARY KEY NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            reported_ms bigint NOT NULL,
            online boolean NOT NULL,
            version text COLLATE "C",
            radios text COLLATE "C",
            spool_depth bigint NOT NULL,
            dropped_readings bigint NOT NULL,
            clock_skew_ms bigint
        );
        ALTER TABLE presence_event DROP CONSTRAINT presence_event_kind;
        ALTER TABLE presence_event ADD CONSTRAINT presence_event_kind
            CHECK (kind IN ('entered', 'left', 'away', 'back', 'missingTagHeard', 'scannerOffline', 'scannerOnline'));
        ALTER TABLE presence_event DROP CONSTRAINT presence_event_subject;
        ALTER TABLE presence_event ADD CONSTRAINT presence_event_subject
            CHECK (CASE WHEN kind = 'missingTagHeard' THEN scanner_id IS NOT NULL AND tag_id IS NOT NULL
                WHEN kind IN ('scannerOffline', 'scannerOnline') THEN scanner_id IS NOT NULL AND tag_id IS NULL
                ELSE (scanner_id IS NULL) <> (tag_id IS NULL) END);
        """
}
