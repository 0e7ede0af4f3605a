/// ``SchemaMQTTBridgeStatus`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaMQTTBridgeStatus {
    static let status = """
        CREATE TABLE mqtt_bridge_status (
            id bigint PRIMARY KEY CHECK (id = 1),
            instance text NOT NULL,
            broker text NOT NULL,
            client_id text NOT NULL,
            report text NOT NULL,
            updated_ms bigint NOT NULL
        );
        """
}
