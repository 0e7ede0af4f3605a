/// ``SchemaTagsInPresence`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaTagsInPresence {
    /// As ``SchemaTagsInPresence/tagPresence``. PostgreSQL alters `presence_event` in place
    /// (drops `scanner_id`'s NOT NULL, replaces the named check on tags) where SQLite copies it,
    /// and replaces the outbox trigger's function; the rows, their IDs and the identity stay.
    static let tagPresence = """
        ALTER TABLE presence_event ALTER COLUMN scanner_id DROP NOT NULL;
        ALTER TABLE presence_event DROP CONSTRAINT presence_event_tag_kind;
        ALTER TABLE presence_event ADD CONSTRAINT presence_event_subject
            CHECK (CASE WHEN kind = 'missingTagHeard' THEN scanner_id IS NOT NULL AND tag_id IS NOT NULL
                ELSE (scanner_id IS NULL) <> (tag_id IS NULL) END);
        ALTER TABLE webhook ADD COLUMN subjects text COLLATE "C" NOT NULL DEFAULT 'scanners';
        CREATE OR REPLACE FUNCTION presence_event_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO webhook_delivery (webhook_id, event_id)
            SELECT id, NEW.id FROM webhook
            WHERE strpos(',' || events || ',', ',' || NEW.kind || ',') > 0
                AND ((NEW.scanner_id IS NOT NULL AND strpos(',' || subjects || ',', ',scanners,') > 0)
                    OR (NEW.tag_id IS NOT NULL AND strpos(',' || subjects || ',', ',tags,') > 0));
            RETURN NULL;
        END $$;
        CREATE TABLE tag_presence_state (
            tag_id bigint PRIMARY KEY NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
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
        ALTER TABLE presence_cursor ADD COLUMN after_tag_position_id bigint NOT NULL DEFAULT 0;
        UPDATE presence_cursor SET after_tag_position_id = COALESCE(pg_sequence_last_value(pg_get_serial_sequence('tag_position', 'id')), 0);
        """
}
