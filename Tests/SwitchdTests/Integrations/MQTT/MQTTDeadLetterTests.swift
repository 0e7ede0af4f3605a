import Foundation
import Harness
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// No stored outbox row can stop MQTT publishing: rows a broker would refuse (left by an older
/// version or written by hand) are moved to `mqtt_outbox_dead` with their reason, and the
/// messages after them still reach a real Mosquitto.
@Suite(.timeLimit(.minutes(1))) struct MQTTDeadLetterTests {
    @Test func outboxRowsABrokerWouldRefuseAreDeadLetteredAndTheRestGoesOut() async throws {
        let folder = try TemporaryFolder("mqtt-dead-letters")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let topic = "floorscan/scanners/default/events"
        let database = try AppDatabase.open(stateDirectory: folder.path("state"))
        let longTopic = "floorscan/" + String(repeating: "x", count: 70_000)
        try await database.writeStatements { sql in
            for (topic, payload) in [(longTopic, "too long"), ("floorscan/+/wildcard", "wildcard"), ("floorscan/#", "wildcard"), (topic, "after")] {
                try sql.execute(
                    "INSERT INTO mqtt_outbox (topic, payload, qos, retain, created_ms) VALUES (?, ?, 1, 0, 0)", [.text(topic), .bytes(Array(payload.utf8))]
                )
            }
        }
        let watcher = try await MQTTWatcher(port: broker.port, topics: [topic], folder: folder)
        try await withMQTTSwitchd(broker: broker, database: database) { switchd in
            let delivered = try await watcher.waitFor(count: 1, topic)
            #expect(delivered.map(\.payload) == ["after"])
            await switchd.status.wait { $0.outboxDepth == 0 }
            let dead = try await database.readStatements { sql in
                try sql.rows("SELECT id, reason FROM mqtt_outbox_dead ORDER BY id", []).map { try $0.string("reason") }
            }
            #expect(dead == [
                "the topic is 70010 bytes, longer than MQTT's 65535",
                "the topic holds a wildcard (+ or #), which a PUBLISH may not",
                "the topic holds a wildcard (+ or #), which a PUBLISH may not",
            ])
            #expect(try await database.mqttDeadLetterCount() == 3)
        }
        await watcher.stop()
        await broker.remove()
    }

    @Test func anEntryOfEveryKindIsJudgedByTheRulesOfAPublish() {
        func reason(_ topic: String, qos: Int = 1, payload: Int = 1) -> String? {
            MQTTOutboxEntry(topic: topic, payload: Array(repeating: 0, count: payload), qos: qos, retain: false).unpublishableReason
        }
        #expect(reason("floorscan/scanners/a/events") == nil && reason("floorscan/é/ü", qos: 0) == nil)
        #expect(reason("") == "the topic is empty")
        #expect(reason("a/#") != nil && reason("a/+/b") != nil && reason("a/+\u{301}") != nil && reason("a/nul\u{0}") == "the topic holds a NUL character")
        #expect(reason("a", qos: 2) == "QoS 2 is not 0 or 1")
        #expect(reason(String(repeating: "é", count: 32_768)) == "the topic is 65536 bytes, longer than MQTT's 65535")
    }
}
