import Foundation
import Harness
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Switch commands over MQTT: an admin token flips the switch by PATCH's rules; anything else
/// is refused and changes nothing.
@Suite("MQTT commands", .serialized)
struct MQTTCommandTests {
    @Test func anAdminFlipsTheSwitchOthersAreRefused() async throws {
        let folder = try TemporaryFolder("mqtt-commands")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let result = "floorscan/scanners/default/switch/result"
        let watcher = try await MQTTWatcher(port: broker.port, topics: [result, "floorscan/status"], folder: folder)
        try await withMQTTSwitchd(broker: broker, configure: { $0.acceptsCommands = true }) { switchd in
            _ = try await watcher.waitFor("floorscan/status", payload: .equal("online"))
            await switchd.status.wait { $0.published["switch"] != nil }
            let reader = try await issueToken(switchd.database, .reader)
            let commands = [
                #"{"token": "\#(reader)", "switch": {"scanning": true}, "requestID": "as-reader"}"#,
                #"{"token": "fst_nonsense", "switch": {"scanning": true}, "requestID": "unknown"}"#,
                #"{"switch": {"scanning": true}}"#,
                #"{"token": "\#(switchd.adminToken)", "switch": {"scanning": "yes"}, "requestID": "bad-patch"}"#,
                #"{"token": "\#(switchd.adminToken)", "switch": {"scanning": true, "mode": "survey", "locationID": 999}, "requestID": "no-location"}"#,
                #"{"token": "\#(switchd.adminToken)", "switch": {"scanning": true}, "requestID": "admin"}"#,
            ]
            for command in commands {
                try await MQTTSwitchd.publish(command, on: "floorscan/scanners/default/switch/set", port: broker.port)
            }
            let answers = try await watcher.waitFor(count: commands.count, result)
            struct Answer: Decodable {
                var requestID: String?
                var accepted: Bool
                var `switch`: ScanSwitch?
                var error: APIErrorBody.Detail?
            }
            let decoded = try answers.map { try $0.decoded(Answer.self, with: JSONCoding.decoder()) }
            #expect(decoded.map(\.requestID) == ["as-reader", "unknown", nil, nil, "no-location", "admin"])
            #expect(decoded.map(\.accepted) == [false, false, false, false, false, true])
            #expect(decoded.map { $0.error?.code } == ["forbidden", "unauthorized", "invalid_command", "invalid_command", "invalid_field", nil])
            #expect(decoded.last?.switch?.scanning == true && decoded.last?.switch?.revision == 2)
            let now = try await switchd.client.scanSwitch()
            #expect(now.revision == 2 && now.scanning, "only the admin's command changed the switch")
        }
        await watcher.stop()
        await broker.remove()
    }

    @Test func withoutTheOptionCommandsAreIgnored() async throws {
        let folder = try TemporaryFolder("mqtt-no-commands")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let result = "floorscan/scanners/default/switch/result"
        let discovery = "homeassistant/device_tracker/floorscan_default/location/config"
        let watcher = try await MQTTWatcher(port: broker.port, topics: [result, discovery], folder: folder)
        try await withMQTTSwitchd(broker: broker) { switchd in
            _ = try await watcher.waitFor(discovery)
            let command = #"{"token": "\#(switchd.adminToken)", "switch": {"scanning": true}, "requestID": "admin"}"#
            try await MQTTSwitchd.publish(command, on: "floorscan/scanners/default/switch/set", port: broker.port)
            // Home Assistant's birth message, published after the command: switchd announces
            // again once it has it, and it would have had the command first had it subscribed.
            try await MQTTSwitchd.publish("online", on: "homeassistant/status", port: broker.port)
            _ = try await watcher.waitFor(count: 2, discovery)
            #expect(!watcher.messages.contains { $0.topic == result }, "no answer: switchd does not listen for commands")
            let now = try await switchd.client.scanSwitch()
            #expect(now.revision == 1 && !now.scanning)
        }
        await watcher.stop()
        await broker.remove()
    }
}
