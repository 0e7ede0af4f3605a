/// Tags followed by presence like scanners, as frozen SQL (see ``SchemaV1``).
enum SchemaTagsInPresence {
    /// `presence_event` rebuilt so a tag's `entered`, `left`, `away` and `back` can be stored:
    /// `scanner_id` may be NULL, and each event is about exactly one scanner or one tag, except
    /// `missingTagHeard`, which names both (the tag, and the scanner that heard it). SQLite cannot
    /// change a column or a CHECK in place, so the table is copied as in ``SchemaTagPresence``
    /// (IDs and the AUTOINCREMENT sequence kept; the migrator runs this with foreign keys off, so
    /// no queued webhook delivery is lost) and its indexes and outbox trigger are made again.
    ///
    /// `webhook.subjects`: whose events a subscription sends, `scanners` and/or `tags`
    /// comma-separated (``ScanContract/WebhookSubject``); the trigger queues an event for a
    /// subscription that names its kind and one of its subjects. A subscription made before gets
    /// `scanners`, so it goes on receiving exactly what it did (scanners' events and
    /// `missingTagHeard`).
    ///
    /// `tag_presence_state`: per tag, what `presence_state` holds per scanner, its last position
    /// being a `tag_position`; it goes with its tag. `presence_cursor.after_tag_position_id`: the
    /// last tag position the derivation has read, starting after those already stored, so no
    /// history is replayed as events.
    static let tagPresence = """
        CREATE TABLE presence_event_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            scanner_id TEXT REFERENCES scanner(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('entered', 'left', 'away', 'back', 'missingTagHeard')),
            place TEXT CHECK (place IN ('room', 'floor')),
            floor_id INTEGER,
            room_id INTEGER,
            time_ms INTEGER NOT NULL,
            position_id INTEGER,
            tag_id INTEGER REFERENCES tag(id) ON DELETE CASCADE,
            CHECK ((kind IN ('entered', 'left')) = (place IS NOT NULL)),
            CHECK (CASE WHEN kind = 'missingTagHeard' THEN scanner_id IS NOT NULL AND tag_id IS NOT NULL
                ELSE (scanner_id IS NULL) <> (tag_id IS NULL) END)
        );
        INSERT INTO presence_event_new (id, scanner_id, kind, place, floor_id, room_id, time_ms, position_id, tag_id)
        SELECT id, scanner_id, kind, place, floor_id, room_id, time_ms, position_id, tag_id FROM presence_event;
        DELETE FROM sqlite_sequence WHERE name = 'presence_event_new';
        INSERT INTO sqlite_sequence (name, seq) SELECT 'presence_event_new', seq FROM sqlite_sequence WHERE name = 'presence_event';
        DROP TABLE presence_event;
        ALTER TABLE presence_event_new RENAME TO presence_event;
        CREATE INDEX presence_event_scanner ON presence_event(scanner_id);
        CREATE INDEX presence_event_tag ON presence_event(tag_id);
        ALTER TABLE webhook ADD COLUMN subjects TEXT NOT NULL DEFAULT 'scanners';
        CREATE TRIGGER presence_event_outbox AFTER INSERT ON presence_event BEGIN
            INSERT INTO webhook_delivery (webhook_id, event_id)
            SELECT id, NEW.id FROM webhook
            WHERE instr(',' || events || ',', ',' || NEW.kind || ',') > 0
                AND ((NEW.scanner_id IS NOT NULL AND instr(',' || subjects || ',', ',scanners,') > 0)
                    OR (NEW.tag_id IS NOT NULL AND instr(',' || subjects || ',', ',tags,') > 0));
        END;
        CREATE TABLE tag_presence_state (
            tag_id INTEGER PRIMARY KEY NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            settled INTEGER NOT NULL CHECK (settled IN (0, 1)),
            floor_id INTEGER,
            room_id INTEGER,
            candidate_floor_id INTEGER,
            candidate_room_id INTEGER,
            candidate_since_ms INTEGER,
            away INTEGER NOT NULL CHECK (away IN (0, 1)),
            last_position_id INTEGER NOT NULL,
            last_time_ms INTEGER NOT NULL
        );
        ALTER TABLE presence_cursor ADD COLUMN after_tag_position_id INTEGER NOT NULL DEFAULT 0;
        UPDATE presence_cursor SET after_tag_position_id = COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'tag_position'), 0);
        """
}
