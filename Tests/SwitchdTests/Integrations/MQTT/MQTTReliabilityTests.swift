import Foundation
import Harness
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// A broker that dies and comes back empty loses nothing: the outbox is sent in order, the
/// state is published again, and the HTTP API went on answering meanwhile. Reconnection waits
/// on a clock the test moves, so the watcher is surely subscribed before switchd is back.
@Suite("MQTT reliability", .serialized)
struct MQTTReliabilityTests {
    @Test func aBrokerKilledAndRestartedLosesNothing() async throws {
        let folder = try TemporaryFolder("mqtt-restart")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let clock = WatchedClock()
        try await withMQTTSwitchd(broker: broker, clock: clock) { switchd in
            let place = try await switchd.scannerInRoom("pi-lab")
            let first = try await MQTTWatcher(port: broker.port, topics: ["floorscan/#"], folder: folder)
            let start = Date()
            try await switchd.postPosition("pi-lab", in: place, x: 1, time: start)
            _ = try await first.waitFor("floorscan/scanners/pi-lab/position", payload: .containing(#""x":1"#))

            await broker.kill()
            await switchd.status.wait { !$0.connected }
            // Ingest and the API do not wait for the broker.
            // One second after the first by its own time, less than the presence dwell: the room
            // is not settled, so no presence event joins the outbox, however long this machine
            // took between the two posts.
            let last = try await switchd.postPosition("pi-lab", in: place, x: 7, time: start.addingTimeInterval(1))
            let events = try (1...20).map { number in
                try MQTTMessage.json(["event": number], topic: switchd.settings.topics.events(try ScannerID("pi-lab")), retain: false)
            }
            try await MQTTOutbox(database: switchd.database, topics: switchd.settings.topics, status: switchd.status).put(events)
            let down = try await switchd.client.call("GET", "/v1/integrations/mqtt", as: MQTTStatus.Report.self)
            #expect(!down.connected && down.outboxDepth == 20 && down.lastError != nil)

            try await broker.start()
            let second = try await MQTTWatcher(port: broker.port, topics: ["floorscan/#", "homeassistant/#"], folder: folder)
            // The deadline service and the reconnect wait sleep on the clock; then let the wait end.
            await clock.sleepers(2)
            await clock.advance(by: switchd.settings.maxReconnectDelay + .milliseconds(1))

            let delivered = try await second.waitFor(count: 20, "floorscan/scanners/pi-lab/events")
            #expect(delivered.map(\.payload) == (1...20).map { #"{"event":\#($0)}"# })
            let position = try await second.waitFor("floorscan/scanners/pi-lab/position")
            #expect(try position.decoded(PositionMessage.self, with: JSONCoding.decoder()).positionID == last.id)
            _ = try await second.waitFor("floorscan/status", payload: .equal("online"))
            _ = try await second.waitFor("homeassistant/device_tracker/floorscan_pi-lab/location/config", payload: .nonEmpty)
            _ = try await second.waitFor("floorscan/scanners/pi-lab/switch", payload: .nonEmpty)
            await switchd.status.wait { $0.outboxDepth == 0 && $0.connections == 2 }
            let drained = try await switchd.database.mqttOutboxDepth()
            #expect(drained == 0)
            await first.stop()
            await second.stop()
        }
        await broker.remove()
    }

    @Test func presenceEventsStoredWhileTheBrokerIsDownGoOutAfterSwitchdRestarts() async throws {
        let folder = try TemporaryFolder("mqtt-outbox-restart")
        defer { folder.remove() }
        let state = folder.path("state")
        let broker = try await MosquittoBroker()
        let topic = "floorscan/scanners/pi-lab/events"
        var stored: [PresenceEvent] = []
        try await withMQTTSwitchd(broker: broker, database: try .open(stateDirectory: state)) { switchd in
            let place = try await switchd.scannerInRoom("pi-lab")
            await switchd.status.wait { $0.connected }
            await broker.kill()
            await switchd.status.wait { !$0.connected }
            // Positions 10 s apart (their own times): the second settles the room past the dwell.
            let start = Date()
            for step in 0..<3 {
                try await switchd.postPosition("pi-lab", in: place, x: 3, time: start.addingTimeInterval(Double(step) * 10))
            }
            await switchd.status.wait { $0.outboxDepth == 2 }
            stored = try await switchd.client.call("GET", "/v1/events", as: Page<PresenceEvent>.self).items
        }
        #expect(stored.map(\.kind) == [.entered, .entered])

        try await broker.start()
        let watcher = try await MQTTWatcher(port: broker.port, topics: [topic], folder: folder)
        try await withMQTTSwitchd(broker: broker, database: try .open(stateDirectory: state)) { switchd in
            let messages = try await watcher.waitFor(count: stored.count, topic)
            let events = try messages.map { try $0.decoded(PresenceEvent.self, with: JSONCoding.decoder()) }
            #expect(events == stored, "each event once, in the order stored")
            #expect(messages.allSatisfy { $0.qos == 1 })
            await switchd.status.wait { $0.outboxDepth == 0 }
        }
        await watcher.stop()
        await broker.remove()
    }

    @Test func eventsPutWhileConnectedGoOutAtOnceInOrder() async throws {
        let folder = try TemporaryFolder("mqtt-events")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let topic = "floorscan/scanners/default/events"
        let watcher = try await MQTTWatcher(port: broker.port, topics: [topic, "floorscan/status"], folder: folder)
        try await withMQTTSwitchd(broker: broker) { switchd in
            _ = try await watcher.waitFor("floorscan/status", payload: .equal("online"))
            let outbox = MQTTOutbox(database: switchd.database, topics: switchd.settings.topics, status: switchd.status)
            for kind in ["entered", "left", "away"] {
                try await outbox.putEvent(["kind": kind], of: .default)
            }
            let events = try await watcher.waitFor(count: 3, topic)
            #expect(events.map(\.payload) == [#"{"kind":"entered"}"#, #"{"kind":"left"}"#, #"{"kind":"away"}"#])
            #expect(events.allSatisfy { $0.qos == 1 && $0.retain == 0 })
            await switchd.status.wait { $0.outboxDepth == 0 }
        }
        await watcher.stop()
        await broker.remove()
    }

    @Test func theLastWillSaysOfflineWhenSwitchdDies() async throws {
        let folder = try TemporaryFolder("mqtt-will")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(port: broker.port, topics: ["floorscan/status"], folder: folder)
        let switchd = try await SwitchdInstance.start(in: folder, arguments: ["--mqtt-broker", "mqtt://127.0.0.1:\(broker.port)"])
        _ = try await watcher.waitFor("floorscan/status", payload: .equal("online"))
        await switchd.process.kill()
        let will = try await watcher.waitFor("floorscan/status", payload: .equal("offline"))
        #expect(will.qos == 1)
        await watcher.stop()
        await broker.remove()
    }
}
