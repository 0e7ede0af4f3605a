import Foundation
import GRDB
import Harness
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// switchd publishing to a real Mosquitto broker, watched by a real `mosquitto_sub`.
///
/// The watcher matches by topic filter and payload, not by closure: with Swift 6.3, closure
/// literals given to an async helper in these tests were seen to run as another closure of the
/// same test.
@Suite("MQTT publishing", .serialized)
struct MQTTPublisherTests {
    static let allTopics = ["floorscan/#", "homeassistant/#"]

    @Test func scannersPositionsAndSwitchesReachTheBrokerAndStayRetained() async throws {
        let folder = try TemporaryFolder("mqtt-state")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(port: broker.port, topics: Self.allTopics, folder: folder)
        try await withMQTTSwitchd(broker: broker) { switchd in
            _ = try await watcher.waitFor("floorscan/status", payload: .equal("online"))
            let place = try await switchd.scannerInRoom("pi-lab", room: "Kitchen")
            let tracker = try await watcher.waitFor("homeassistant/device_tracker/floorscan_pi-lab/location/config")
            let config = try tracker.decoded(DiscoveryConfig.self)
            #expect(config.stateTopic == "floorscan/scanners/pi-lab/room" && config.device.name == "Scanner pi-lab")
            let initialSwitch = try await watcher.waitFor("floorscan/scanners/pi-lab/switch")
            #expect(try initialSwitch.decoded(ScanSwitch.self, with: JSONCoding.decoder()).revision == 1)

            let stored = try await switchd.postPosition("pi-lab", in: place, x: 3.5)
            let published = try await watcher.waitFor("floorscan/scanners/pi-lab/position")
            let position = try published.decoded(PositionMessage.self, with: JSONCoding.decoder())
            #expect(position == PositionMessage(stored, floorName: "Ground", roomName: "Kitchen"))
            _ = try await watcher.waitFor("floorscan/scanners/pi-lab/room", payload: .equal("Kitchen"))
            let available = try await watcher.waitFor("floorscan/scanners/pi-lab/availability", payload: .equal("online"))
            #expect(available.qos == 1)
            let lastSeen = try await watcher.waitFor("floorscan/scanners/pi-lab/last-seen")
            #expect(JSONCoding.parseDate(lastSeen.payload) != nil, "an ISO 8601 time with its zone, as a timestamp sensor needs: \(lastSeen.payload)")

            _ = try await switchd.client.patchSwitch(SwitchPatch(scanning: true), scanner: "pi-lab")
            let flipped = try await watcher.waitFor("floorscan/scanners/pi-lab/switch", payload: .containing(#""revision":2"#))
            #expect(try flipped.decoded(ScanSwitch.self, with: JSONCoding.decoder()).scanning)

            // A client that comes later gets the latest of everything from the broker.
            let late = try await MQTTWatcher(port: broker.port, topics: Self.allTopics, folder: folder)
            for topic in ["floorscan/status", "floorscan/scanners/pi-lab/position", "floorscan/scanners/pi-lab/room",
                          "homeassistant/sensor/floorscan_pi-lab/accuracy/config"] {
                let retained = try await late.waitFor(topic)
                #expect(retained.retain == 1, "\(topic)")
            }
            let retainedSwitch = try await late.waitFor("floorscan/scanners/pi-lab/switch")
            #expect(try retainedSwitch.decoded(ScanSwitch.self, with: JSONCoding.decoder()).revision == 2)
            await late.stop()

            let report = try await switchd.client.call("GET", "/v1/integrations/mqtt", as: MQTTStatus.Report.self)
            #expect(report.enabled && report.connected && report.broker == "mqtt://127.0.0.1:\(broker.port)")
            #expect(report.published["position"] == 2, "\(report.published)")
            #expect(report.published["switch"] == 3, "\(report.published)")
            #expect(report.published["discovery"] == 12, "\(report.published)")
            let metrics = try await switchd.client.send("GET", "/metrics")
            #expect(metrics.text.contains("switchd_mqtt_connected 1"))
        }
        // A graceful stop says so before it leaves.
        let offline = try await watcher.waitFor("floorscan/status", payload: .equal("offline"))
        #expect(offline.retain == 0)
        await watcher.stop()
        await broker.remove()
    }

    @Test func presenceEventsArePublishedOnceEachAtQoS1InTheOrderStored() async throws {
        let folder = try TemporaryFolder("mqtt-presence")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let topic = "floorscan/scanners/pi-lab/events"
        let watcher = try await MQTTWatcher(port: broker.port, topics: [topic], folder: folder)
        try await withMQTTSwitchd(broker: broker) { switchd in
            let place = try await switchd.scannerInRoom("pi-lab", room: "Kitchen")
            // Positions 10 s apart (their own times): the second settles the room past the dwell.
            let start = Date()
            for step in 0..<3 {
                try await switchd.postPosition("pi-lab", in: place, x: 3, time: start.addingTimeInterval(Double(step) * 10))
            }
            let messages = try await watcher.waitFor(count: 2, topic, payload: .containing(#""kind":"entered""#))
            let events = try messages.map { try $0.decoded(PresenceEvent.self, with: JSONCoding.decoder()) }
            #expect(Set(events.compactMap(\.place)) == [.room, .floor])
            #expect(events.allSatisfy { $0.scannerID.rawValue == "pi-lab" && $0.floor == place.floor.id })
            #expect(events.first { $0.place == .room }?.roomID == place.room.id)
            #expect(messages.allSatisfy { $0.qos == 1 && $0.retain == 0 })
            #expect(events.map(\.id) == events.map(\.id).sorted())
            // Relayed once: the cursor stands at the last event, and the outbox drains.
            let stored = try await switchd.client.call("GET", "/v1/events", as: Page<PresenceEvent>.self).items
            #expect(stored.map(\.id) == events.map(\.id))
        }
        await watcher.stop()
        await broker.remove()
    }

    @Test func aScannerNotHeardFromForTheTimeoutIsOffline() async throws {
        let folder = try TemporaryFolder("mqtt-away")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let topic = "floorscan/scanners/pi-lab/availability"
        let watcher = try await MQTTWatcher(port: broker.port, topics: [topic], folder: folder)
        try await withMQTTSwitchd(broker: broker, configure: { $0.scannerTimeout = .seconds(1) }) { switchd in
            let place = try await switchd.scannerInRoom("pi-lab")
            // Unheard of: offline from the start.
            _ = try await watcher.waitFor(topic, payload: .equal("offline"))
            try await switchd.postPosition("pi-lab", in: place, x: 1)
            let states = try await watcher.waitFor(count: 3, topic)
            #expect(states.map(\.payload) == ["offline", "online", "offline"])
        }
        await watcher.stop()
        await broker.remove()
    }

    @Test func homeAssistantsBirthMessageBringsDiscoveryAgain() async throws {
        let folder = try TemporaryFolder("mqtt-birth")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let topic = "homeassistant/device_tracker/floorscan_default/location/config"
        let watcher = try await MQTTWatcher(port: broker.port, topics: [topic], folder: folder)
        try await withMQTTSwitchd(broker: broker) { _ in
            _ = try await watcher.waitFor(topic)
            try await MQTTSwitchd.publish("online", on: "homeassistant/status", port: broker.port)
            let both = try await watcher.waitFor(count: 2, topic)
            #expect(both[0].payload == both[1].payload)
        }
        await watcher.stop()
        await broker.remove()
    }

    @Test func aScannerThatIsGoneIsRemovedFromHomeAssistant() async throws {
        let folder = try TemporaryFolder("mqtt-removal")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(
            port: broker.port, topics: ["homeassistant/#", "floorscan/scanners/old/#", "floorscan/scanners/default/switch"], folder: folder
        )
        try await withMQTTSwitchd(broker: broker) { switchd in
            _ = try await switchd.scannerInRoom("old")
            _ = try await watcher.waitFor("homeassistant/sensor/floorscan_old/last_seen/config", payload: .nonEmpty)
            // No endpoint deletes a scanner yet; the row goes as a future DELETE would take it.
            try await switchd.database.writer.write { db in try db.execute(sql: "DELETE FROM scanner WHERE id = 'old'") }
            _ = try await switchd.client.patchSwitch(SwitchPatch(scanning: true))
            let removed = try await watcher.waitFor(count: 6, "homeassistant/+/floorscan_old/+/config", payload: .empty)
            #expect(Set(removed.map(\.topic)).count == 6)
            _ = try await watcher.waitFor("floorscan/scanners/old/switch", payload: .empty)
            // Published after the removal is recorded.
            _ = try await watcher.waitFor("floorscan/scanners/default/switch", payload: .containing(#""revision":2"#))
            let discovered = try await switchd.database.mqttDiscoveredScanners()
            #expect(discovered == ["default"])
        }
        await watcher.stop()
        await broker.remove()
    }

    @Test func readingsArePublishedOnlyWhenAskedAndABatchCountsAsContact() async throws {
        let folder = try TemporaryFolder("mqtt-readings")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let readings = "floorscan/scanners/default/measurements"
        let watcher = try await MQTTWatcher(
            port: broker.port, topics: [readings, "floorscan/scanners/default/availability", "floorscan/scanners/default/switch"], folder: folder
        )
        try await withMQTTSwitchd(broker: broker, configure: { $0.publishesMeasurements = true }) { switchd in
            // Readings are live at QoS 0: those stored before the connection has published its
            // state (the retained switch comes then) are not sent.
            _ = try await watcher.waitFor("floorscan/scanners/default/switch")
            let on = try await switchd.client.patchSwitch(SwitchPatch(scanning: true, storeData: true))
            let batch = Readings.batch([Readings.wifi(rssi: -61), Readings.wifi(rssi: -62, at: 1)], revision: on.revision)
            let stored = try await switchd.client.send("POST", "/v1/measurements", json: batch)
            #expect(stored.status == 200 || stored.status == 201, "\(stored.text)")
            let published = try await watcher.waitFor(count: 2, readings)
            let decoded = try published.map { try $0.decoded(StoredMeasurement.self, with: JSONCoding.decoder()) }
            #expect(decoded.map(\.measurement.rssi) == [-61, -62])
            #expect(published.allSatisfy { $0.qos == 0 && $0.retain == 0 })
            _ = try await watcher.waitFor("floorscan/scanners/default/availability", payload: .equal("online"))
        }
        await watcher.stop()
        await broker.remove()
    }
}
