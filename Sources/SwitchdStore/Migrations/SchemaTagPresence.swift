enum SchemaTagPresence {
    /// `presence_event` rebuilt to carry tag events as well: a `tag_id` (set exactly for the
    /// tag kinds; the event goes with its tag) and the kind `missingTagHeard`, whose scanner is
    /// the one that heard the tag. SQLite cannot change a CHECK in place, so the table is copied
    /// (ids and the AUTOINCREMENT sequence kept, so cursors and `Last-Event-ID` stay meaningful),
    /// and its index and the webhook
    /// outbox trigger are made again. The migrator runs this with foreign keys off, so dropping
    /// the old table loses no webhook delivery.
    static let missingTagEvents = """
        CREATE TABLE presence_event_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            scanner_id TEXT NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('entered', 'left', 'away', 'back', 'missingTagHeard')),
            place TEXT CHECK (place IN ('room', 'floor')),
            floor_id INTEGER,
            room_id INTEGER,
            time_ms INTEGER NOT NULL,
            position_id INTEGER,
            tag_id INTEGER REFERENCES tag(id) ON DELETE CASCADE,
            CHECK ((kind IN ('entered', 'left')) = (place IS NOT NULL)),
            CHECK ((kind = 'missingTagHeard') = (tag_id IS NOT NULL))
        );
        INSERT INTO presence_event_new (id, scanner_id, kind, place, floor_id, room_id, time_ms, position_id)
        SELECT id, scanner_id, kind, place, floor_id, room_id, time_ms, position_id FROM presence_event;
        DELETE FROM sqlite_sequence WHERE name = 'presence_event_new';
        INSERT INTO sqlite_sequence (name, seq) SELECT 'presence_event_new', seq FROM sqlite_sequence WHERE name = 'presence_event';
        DROP TABLE presence_event;
        ALTER TABLE presence_event_new RENAME TO presence_event;
        CREATE INDEX presence_event_scanner ON presence_event(scanner_id);
        CREATE INDEX presence_event_tag ON presence_event(tag_id);
        CREATE TRIGGER presence_event_outbox AFTER INSERT ON presence_event BEGIN
            INSERT INTO webhook_delivery (webhook_id, event_id)
            SELECT id, NEW.id FROM webhook WHERE instr(',' || events || ',', ',' || NEW.kind || ',') > 0;
        END;
        """
}
