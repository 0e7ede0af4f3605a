/// ``SchemaMQTTBridgeStatus`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaMQTTBridgeStatus {
    static let status = """
        CREATE TABLE mqtt_bridge_status (
            id bigint PRIMARY KEY CHECK (id = 1),
            instance text COLLATE "C" NOT NULL,
            broker text COLLATE "C" NOT NULL,
            client_id text COLLATE "C" NOT NULL,
            report text COLLATE "C" NOT NULL,
            updated_ms bigint NOT NULL
        );
        """
}
