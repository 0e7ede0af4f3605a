/// Scanner health and its events, as frozen SQL (see ``SchemaV1``).
enum SchemaScannerHealth {
    /// `scanner_health`: per scanner, its last counter report as switchd received it (when, on
    /// switchd's clock; the version, radios as JSON, spool depth and dropped readings it sent;
    /// its clock's skew) and whether it is online. Goes with its scanner.
    ///
    /// `presence_event` rebuilt for the kinds `scannerOffline` and `scannerOnline` (a scanner's
    /// events: a scanner, no tag, no place). SQLite cannot change a CHECK in place, so the table
    /// is copied as in ``SchemaTagsInPresence`` (IDs and the AUTOINCREMENT sequence kept; the
    /// migrator runs this with foreign keys off, so no queued webhook delivery is lost) and its
    /// indexes and outbox trigger are made again, unchanged.
    static let health = """
        CREATE TABLE scanner_health (
            scanner_id TEXT PRIMARY KEY NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            reported_ms INTEGER NOT NULL,
            online INTEGER NOT NULL CHECK (online IN (0, 1)),
            version TEXT,
            radios TEXT,
            spool_depth INTEGER NOT NULL,
            dropped_readings INTEGER NOT NULL,
            clock_skew_ms INTEGER
        );
        CREATE TABLE presence_event_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            scanner_id TEXT REFERENCES scanner(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('entered', 'left', 'away', 'back', 'missingTagHeard', 'scannerOffline', 'scannerOnline')),
            place TEXT CHECK (place IN ('room', 'floor')),
            floor_id INTEGER,
            room_id INTEGER,
            time_ms INTEGER NOT NULL,
            position_id INTEGER,
            tag_id INTEGER REFERENCES tag(id) ON DELETE CASCADE,
            CHECK ((kind IN ('entered', 'left')) = (place IS NOT NULL)),
            CHECK (CASE WHEN kind = 'missingTagHeard' THEN scanner_id IS NOT NULL AND tag_id IS NOT NULL
                WHEN kind IN ('scannerOffline', 'scannerOnline') THEN scanner_id IS NOT NULL AND tag_id IS NULL
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
        CREATE TRIGGER presence_event_outbox AFTER INSERT ON presence_event BEGIN
            INSERT INTO webhook_delivery (webhook_id, event_id)
            SELECT id, NEW.id FROM webhook
            WHERE instr(',' || events || ',', ',' || NEW.kind || ',') > 0
                AND ((NEW.scanner_id IS NOT NULL AND instr(',' || subjects || ',', ',scanners,') > 0)
                    OR (NEW.tag_id IS NOT NULL AND instr(',' || subjects || ',', ',tags,') > 0));
        END;
        """
}
