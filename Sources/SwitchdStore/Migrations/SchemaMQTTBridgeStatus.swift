/// `v5-mqtt-bridge-status`.
enum SchemaMQTTBridgeStatus {
    /// `mqtt_bridge_status`: one row, what the switchd leading the cluster's `mqtt` election says
    /// of its broker session (``AppDatabase/saveMQTTBridgeStatus(_:)``), so every instance
    /// answers `GET /v1/integrations/mqtt` for the cluster and one started with another broker or
    /// client ID is refused (docs/scale-out.md). On SQLite it stays empty: one switchd answers
    /// from memory.
    static let status = """
        CREATE TABLE mqtt_bridge_status (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            instance TEXT NOT NULL,
            broker TEXT NOT NULL,
            client_id TEXT NOT NULL,
            report TEXT NOT NULL,
            updated_ms INTEGER NOT NULL
        );
        """
}
