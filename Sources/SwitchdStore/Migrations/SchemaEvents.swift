/// Presence events and the webhooks they are delivered to, as frozen SQL (see ``SchemaV1``).
enum SchemaEvents {
    /// `presence_event`: every derived event; AUTOINCREMENT so cursors and `Last-Event-ID` stay
    /// meaningful after deletes. Floor and room IDs are history, not references: an event stays
    /// true after its room is deleted. Events go with their scanner.
    ///
    /// `presence_state`: per scanner, the place it is settled in, the place it may be moving to
    /// and since when (the dwell), whether it is away, and the last position read.
    /// `presence_cursor`: the last position the derivation has read; a database that already
    /// holds positions starts after them, so no history is replayed as events.
    ///
    /// `webhook` and `webhook_delivery`: subscriptions (their secret is needed to sign, so it is
    /// kept as given) and the outbox. A trigger queues one delivery per matching subscription in
    /// the transaction that stores the event, so no write path can forget to.
    static let eventsAndWebhooks = """
        CREATE TABLE presence_event (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            scanner_id TEXT NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('entered', 'left', 'away', 'back')),
            place TEXT CHECK (place IN ('room', 'floor')),
            floor_id INTEGER,
            room_id INTEGER,
            time_ms INTEGER NOT NULL,
            position_id INTEGER,
            CHECK ((kind IN ('entered', 'left')) = (place IS NOT NULL))
        );
        CREATE INDEX presence_event_scanner ON presence_event(scanner_id);
        CREATE TABLE presence_state (
            scanner_id TEXT PRIMARY KEY NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
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
        CREATE TABLE presence_cursor (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            after_position_id INTEGER NOT NULL
        );
        INSERT INTO presence_cursor (id, after_position_id)
        VALUES (1, COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'position'), 0));
        CREATE TABLE webhook (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            url TEXT NOT NULL,
            secret TEXT NOT NULL,
            events TEXT NOT NULL,
            created_ms INTEGER NOT NULL
        );
        CREATE TABLE webhook_delivery (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            webhook_id INTEGER NOT NULL REFERENCES webhook(id) ON DELETE CASCADE,
            event_id INTEGER NOT NULL REFERENCES presence_event(id) ON DELETE CASCADE,
            state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
            attempts INTEGER NOT NULL DEFAULT 0,
            last_status INTEGER,
            last_error TEXT,
            last_attempt_ms INTEGER,
            UNIQUE (webhook_id, event_id)
        );
        CREATE INDEX webhook_delivery_state ON webhook_delivery(webhook_id, state, id);
        CREATE INDEX webhook_delivery_event ON webhook_delivery(event_id);
        CREATE TRIGGER presence_event_outbox AFTER INSERT ON presence_event BEGIN
            INSERT INTO webhook_delivery (webhook_id, event_id)
            SELECT id, NEW.id FROM webhook WHERE instr(',' || events || ',', ',' || NEW.kind || ',') > 0;
        END;
        """
}
