/// ``SchemaMQTTDeadLetters`` on PostgreSQL.
enum PostgresSchemaMQTTDeadLetters {
    static let deadLetters = """
        CREATE TABLE mqtt_outbox_dead (
            id bigint PRIMARY KEY,
            topic text COLLATE "C" NOT NULL,
            payload bytea NOT NULL,
            qos bigint NOT NULL,
            retain boolean NOT NULL,
            created_ms bigint NOT NULL,
            dead_ms bigint NOT NULL,
            reason text COLLATE "C" NOT NULL
        );
        """
}
