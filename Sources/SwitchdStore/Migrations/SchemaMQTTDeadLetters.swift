/// The MQTT outbox's dead letters, as frozen SQL (see ``SchemaV1``).
enum SchemaMQTTDeadLetters {
    /// An outbox message that can never be published (a topic the protocol refuses, one longer
    /// than 65,535 bytes) is moved here with the reason, in one transaction, so it no longer
    /// holds back the messages after it and nothing of it is lost. `id` is the outbox row's.
    static let deadLetters = """
        CREATE TABLE mqtt_outbox_dead (
            id INTEGER PRIMARY KEY,
            topic TEXT NOT NULL,
            payload BLOB NOT NULL,
            qos INTEGER NOT NULL,
            retain INTEGER NOT NULL,
            created_ms INTEGER NOT NULL,
            dead_ms INTEGER NOT NULL,
            reason TEXT NOT NULL
        );
        """
}
