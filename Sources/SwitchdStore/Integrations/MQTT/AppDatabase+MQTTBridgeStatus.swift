import Foundation

/// What the switchd leading the cluster's `mqtt` election last said of its broker session
/// (table `mqtt_bridge_status`, docs/scale-out.md "The MQTT bridge's status").
package struct MQTTBridgeStatus: Sendable, Equatable {
    /// Which switchd wrote it (host name and process ID).
    package var instance: String
    package var broker: String
    package var clientID: String
    /// The leader's `GET /v1/integrations/mqtt` answer, as JSON.
    package var report: String
    package var updated: Date

    package init(instance: String, broker: String, clientID: String, report: String, updated: Date) {
        self.instance = instance
        self.broker = broker
        self.clientID = clientID
        self.report = report
        self.updated = updated
    }
}

extension AppDatabase {
    /// Stores the leader's status in place of the last one.
    package func saveMQTTBridgeStatus(_ status: MQTTBridgeStatus) async throws {
        try await writeStatements { sql in
            _ = try sql.execute("""
                INSERT INTO mqtt_bridge_status (id, instance, broker, client_id, report, updated_ms) VALUES (1, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET instance = excluded.instance, broker = excluded.broker,
                    client_id = excluded.client_id, report = excluded.report, updated_ms = excluded.updated_ms
                """, [
                    .text(status.instance), .text(status.broker), .text(status.clientID), .text(status.report),
                    .integer(status.updated.milliseconds),
                ])
        }
    }

    /// The last status a leader stored, nil when none has.
    package func mqttBridgeStatus() async throws -> MQTTBridgeStatus? {
        try await readStatements { sql in
            try sql.row("SELECT instance, broker, client_id, report, updated_ms FROM mqtt_bridge_status WHERE id = 1", []).map { row in
                MQTTBridgeStatus(
                    instance: try row.string("instance"), broker: try row.string("broker"), clientID: try row.string("client_id"),
                    report: try row.string("report"), updated: Date(milliseconds: try row.int64("updated_ms"))
                )
            }
        }
    }
}
