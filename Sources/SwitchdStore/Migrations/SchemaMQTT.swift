/// The MQTT publisher's tables, as frozen SQL (see ``SchemaV1``).
enum SchemaMQTT {
    /// Messages that must reach the broker at least once, in `id` order: a row is deleted only
    /// after the broker acknowledged it (QoS 1) or it was written to the socket (QoS 0).
    ///
    /// The scanners whose Home Assistant discovery configuration is on the broker, so a scanner
    /// that is gone has its configuration removed even across a restart. No foreign key: the row
    /// must outlive its scanner until the removal is published.
    ///
    /// The last presence event the relay put in the outbox (one row), moved in the same
    /// transaction as the message, so each event is put there exactly once.
    static let outbox = """
        CREATE TABLE mqtt_outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            topic TEXT NOT NULL CHECK (length(topic) > 0),
            payload BLOB NOT NULL,
            qos INTEGER NOT NULL CHECK (qos IN (0, 1)),
            retain INTEGER NOT NULL CHECK (retain IN (0, 1)),
            created_ms INTEGER NOT NULL
        );
        CREATE TABLE mqtt_discovered_scanner (
            scanner_id TEXT PRIMARY KEY NOT NULL
        );
        CREATE TABLE mqtt_presence_cursor (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            last_event_id INTEGER NOT NULL
        );
        """
}
