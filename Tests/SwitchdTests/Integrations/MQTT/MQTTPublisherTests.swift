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

    @Test func aTagsPresenceEventsArePublishedOnItsOwnTopic() async throws {
        let folder = try TemporaryFolder("mqtt-tag-presence")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let topic = "floorscan/tags/1/events"
        let watcher = try await MQTTWatcher(port: broker.port, topics: [topic], folder: folder)
        try await withMQTTSwitchd(broker: broker) { switchd in
            let place = try await switchd.scannerInRoom("pi-lab", room: "Kitchen")
            let tag = try await switchd.database.createTag(NewTag(name: "Bike", identity: .address(MACAddress(rawValue: 0xAA_BB_CC_00_11_22))))
            #expect(tag.id == 1)
            // Two windows 10 s apart (their own times): the second settles the room past the dwell.
            let start = Date()
            for step in 0..<2 {
                _ = try await switchd.database.storeTagPosition(TagPosition(
                    id: 0, tagID: tag.id, time: start.addingTimeInterval(Double(step) * 10), floorID: place.floor.id, x: 3, y: 2,
                    roomID: place.room.id, accuracyMetres: 1, method: "fused", scannersHeard: 3
                ))
            }
            // Stored behind the window closer's back: a scanner's position wakes the derivation, which reads both.
            try await switchd.postPosition("pi-lab", in: place, x: 3, time: start)
            let messages = try await watcher.waitFor(count: 2, topic, payload: .containing(#""kind":"entered""#))
            let events = try messages.map { try $0.decoded(PresenceEvent.self, with: JSONCoding.decoder()) }
            #expect(Set(events.compactMap(\.place)) == [.room, .floor])
            #expect(events.allSatisfy { $0.tagID == tag.id && $0.scannerID == nil && $0.floor == place.floor.id })
            #expect(messages.allSatisfy { $0.qos == 1 && $0.retain == 0 })
        }
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
            #expect(events.allSatisfy { $0.scannerID?.rawValue == "pi-lab" && $0.floor == place.floor.id })
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
        // The wall clock stands still until the test moves it past the timeout, so the scanner is
        // online from its position however long this machine takes to publish it.
        let start = Date.nowInMilliseconds()
        let wall = SetWallClock(start)
        try await withMQTTSwitchd(broker: broker, wallClock: wall.wallClock, configure: { $0.scannerTimeout = .seconds(1) }) { switchd in
            let place = try await switchd.scannerInRoom("pi-lab")
            // Unheard of: offline from the start.
            _ = try await watcher.waitFor(topic, payload: .equal("offline"))
            try await switchd.postPosition("pi-lab", in: place, x: 1, time: start)
            _ = try await watcher.waitFor(count: 2, topic)
            wall.set(start.addingTimeInterval(2))
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

    /// `DELETE /v1/scanners/{id}` takes the scanner's entities out of Home Assistant and empties
    /// its retained topics; registered again, it is announced afresh, after the removal.
    @Test func aScannerDeletedThroughTheAPIIsRemovedFromHomeAssistant() async throws {
        let folder = try TemporaryFolder("mqtt-removal")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(port: broker.port, topics: ["homeassistant/#", "floorscan/scanners/old/#"], folder: folder)
        try await withMQTTSwitchd(broker: broker) { switchd in
            let place = try await switchd.scannerInRoom("old")
            try await switchd.postPosition("old", in: place, x: 2)
            _ = try await watcher.waitFor("homeassistant/sensor/floorscan_old/last_seen/config", payload: .nonEmpty)
            _ = try await watcher.waitFor("floorscan/scanners/old/last-seen", payload: .nonEmpty)

            let deleted = try await switchd.client.send("DELETE", "/v1/scanners/old")
            #expect(deleted.status == 204, "\(deleted.text)")
            // Its tracker's and a receiver's entities alike: whichever it was announced as.
            let removed = try await watcher.waitFor(count: 10, "homeassistant/+/floorscan_old/+/config", payload: .empty)
            #expect(Set(removed.map(\.topic)).count == 10)
            #expect(removed.allSatisfy { $0.qos == 1 })
            for state in ["position", "room", "switch", "availability", "last-seen", "receiver"] {
                _ = try await watcher.waitFor("floorscan/scanners/old/\(state)", payload: .empty)
            }
            await switchd.status.wait { $0.outboxDepth == 0 }
            #expect(try await switchd.database.mqttDiscoveredScanners() == ["default"])
            // A late subscriber finds nothing retained of it.
            let late = try await MQTTWatcher(port: broker.port, topics: ["homeassistant/+/floorscan_old/#", "floorscan/scanners/old/#", "floorscan/status"], folder: folder)
            let first = try await late.waitFor("#")
            #expect(first.topic == "floorscan/status", "only switchd's own status is retained: \(first.topic)")
            await late.stop()

            _ = try await switchd.client.call("POST", "/v1/scanners", json: NewScanner(id: try ScannerID("old"), name: "Old again"), as: ScanContract.Scanner.self)
            let configs = try await watcher.waitFor(count: 3, "homeassistant/device_tracker/floorscan_old/location/config")
            #expect(configs.map(\.payload.isEmpty) == [false, true, false], "announced, removed, announced again")
            #expect(try configs[2].decoded(DiscoveryConfig.self).device.name == "Old again")
        }
        await watcher.stop()
        await broker.remove()
    }

    /// The removal waits in the outbox while the broker is down and goes out when it is back;
    /// the delete itself does not wait for the broker.
    @Test func aScannerDeletedWhileTheBrokerIsDownIsRemovedWhenItIsBack() async throws {
        let folder = try TemporaryFolder("mqtt-removal-down")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let clock = WatchedClock()
        try await withMQTTSwitchd(broker: broker, clock: clock) { switchd in
            _ = try await switchd.scannerInRoom("old")
            await switchd.status.wait { $0.connected && $0.outboxDepth == 0 }
            await broker.kill()
            await switchd.status.wait { !$0.connected }
            let deleted = try await switchd.client.send("DELETE", "/v1/scanners/old")
            #expect(deleted.status == 204, "\(deleted.text)")
            await switchd.status.wait { $0.outboxDepth == 16 }

            try await broker.start()
            let watcher = try await MQTTWatcher(port: broker.port, topics: ["homeassistant/+/floorscan_old/#", "floorscan/scanners/old/#"], folder: folder)
            // The deadline service and the reconnect wait sleep on the clock; then let the wait end.
            await clock.sleepers(2)
            await clock.advance(by: switchd.settings.maxReconnectDelay + .milliseconds(1))
            let removed = try await watcher.waitFor(count: 16, "#", payload: .empty)
            #expect(Set(removed.map(\.topic)).count == 16)
            await switchd.status.wait { $0.outboxDepth == 0 }
            await watcher.stop()
        }
        await broker.remove()
    }

    /// A scanner deleted while switchd ran without a broker is removed from Home Assistant on
    /// the next start with one (`mqtt_discovered_scanner` remembers it was announced).
    @Test func aScannerDeletedWithoutABrokerIsRemovedOnTheNextStartWithOne() async throws {
        let folder = try TemporaryFolder("mqtt-removal-later")
        defer { folder.remove() }
        let state = folder.path("state")
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(port: broker.port, topics: ["homeassistant/+/floorscan_old/#"], folder: folder)
        try await withMQTTSwitchd(broker: broker, database: try .open(stateDirectory: state)) { switchd in
            _ = try await switchd.scannerInRoom("old")
            _ = try await watcher.waitFor("homeassistant/sensor/floorscan_old/last_seen/config", payload: .nonEmpty)
        }
        let database = try AppDatabase.open(stateDirectory: state)
        let status = try await makeApp(database).test(.router) { client in
            try await client.execute(uri: "/v1/scanners/old", method: .delete).status
        }
        #expect(status == .noContent)
        #expect(try await database.mqttOutboxDepth() == 0, "no broker configured: nothing queued that no one sends")
        try await withMQTTSwitchd(broker: broker, database: database) { switchd in
            _ = try await watcher.waitFor(count: 10, "homeassistant/+/floorscan_old/+/config", payload: .empty)
            await switchd.status.wait { $0.outboxDepth == 0 }
        }
        #expect(try await database.mqttDiscoveredScanners() == ["default"])
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
