import Foundation
import Harness
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Tags and fixed receivers over MQTT, through a real Mosquitto, watched by a real `mosquitto_sub`.
@Suite("MQTT tags and receivers", .serialized)
struct MQTTTagPublishingTests {
    static let bike = TagIdentity.address(MACAddress(rawValue: 0xAA_BB_CC_00_11_22))

    /// A placed receiver in a geo-referenced room with a location (tags get their room from the
    /// nearest location), and a tag.
    static func site(_ switchd: MQTTSwitchd, receiver: String = "fixed-1") async throws -> (MQTTSwitchd.Place, ScanContract.Tag) {
        let place = try await switchd.scannerInRoom(receiver, room: "Kitchen")
        _ = try await switchd.client.createLocation(in: place.room, x: 5, y: 5)
        _ = try await switchd.database.setGeoreference(ofFloor: place.floor.id, NewGeoreference(controlPoints: [
            ControlPoint(x: 0, y: 0, latitude: 51.5116, longitude: -0.117),
            ControlPoint(x: 40, y: 0, latitude: 51.5116, longitude: -0.116423),
            ControlPoint(x: 0, y: 20, latitude: 51.51142, longitude: -0.117),
        ]))
        _ = try await switchd.client.call(
            "PUT", "/v1/scanners/\(receiver)/placement", json: NewScannerPlacement(floorID: place.floor.id, x: 4, y: 4), as: ScannerPlacement.self
        )
        let tag = try await switchd.client.call("POST", "/v1/tags", json: NewTag(name: "Bike", identity: bike), as: ScanContract.Tag.self)
        return (place, tag)
    }

    /// Reports two one-second windows of the tag from `receiver`: the second closes the first,
    /// which is located then.
    static func hear(_ switchd: MQTTSwitchd, receiver: String = "fixed-1", at start: Date = Date()) async throws {
        for window in 0..<2 {
            let end = start.addingTimeInterval(Double(window + 1))
            let sighting = Sighting(identity: bike, windowStart: end.addingTimeInterval(-1), windowEnd: end, count: 5, medianRSSI: -60, maxRSSI: -58)
            let batch = SightingBatch(scannerID: try ScannerID(receiver), sightings: [sighting])
            let stored = try await switchd.client.send("POST", "/v1/sightings", json: batch)
            #expect(stored.status == 201, "\(stored.text)")
        }
    }

    @Test func aTagIsAnnouncedLocatedOnTheMapAndRemovedWhenDeleted() async throws {
        let folder = try TemporaryFolder("mqtt-tags")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(
            port: broker.port, topics: ["floorscan/tags/#", "homeassistant/+/floorscan_tag_1/#", "homeassistant/+/floorscan_tag_2/#"], folder: folder
        )
        try await withMQTTSwitchd(broker: broker) { switchd in
            let (_, tag) = try await Self.site(switchd)
            #expect(tag.id == 1)
            let tracker = try await watcher.waitFor("homeassistant/device_tracker/floorscan_tag_1/location/config", payload: .nonEmpty)
            let config = try tracker.decoded(DiscoveryConfig.self)
            #expect(config.device.name == "Bike" && config.stateTopic == "floorscan/tags/1/room" && config.jsonAttributesTopic == "floorscan/tags/1/position")
            _ = try await watcher.waitFor("floorscan/tags/1/availability", payload: .equal("offline"))

            let heardFrom = Date()
            try await Self.hear(switchd, at: heardFrom)
            let published = try await watcher.waitFor("floorscan/tags/1/position", payload: .nonEmpty)
            let position = try published.decoded(TagPositionMessage.self, with: JSONCoding.decoder())
            #expect(position.name == "Bike" && position.room == "Kitchen" && position.floorName == "Ground" && position.scannersHeard == 1)
            #expect(position.roomProbabilities == ["Kitchen": 1] && position.roomProbability == 1)
            #expect(position.latitude != nil && position.longitude != nil && position.gpsAccuracy != nil)
            #expect(published.payload.contains(#""gps_accuracy":"#), "Home Assistant's own attribute name")
            _ = try await watcher.waitFor("floorscan/tags/1/room", payload: .equal("Kitchen"))
            _ = try await watcher.waitFor("floorscan/tags/1/availability", payload: .equal("online"))
            let lastSeen = try await watcher.waitFor("floorscan/tags/1/last-seen", payload: .nonEmpty)
            // A window's end (either of the two heard: the first may be published before the
            // second's contact arrives), or when switchd located it should the window end ahead of
            // switchd's clock; never later than the last window's end.
            let seen = try #require(JSONCoding.parseDate(lastSeen.payload))
            #expect(seen <= heardFrom.addingTimeInterval(2.001) && seen > heardFrom.addingTimeInterval(-60), "\(seen) against windows from \(heardFrom)")

            let deleted = try await switchd.client.send("DELETE", "/v1/tags/1")
            #expect(deleted.status == 204, "\(deleted.text)")
            let removed = try await watcher.waitFor(count: 8, "homeassistant/+/floorscan_tag_1/+/config", payload: .empty)
            #expect(Set(removed.map(\.topic)).count == 8)
            for state in ["position", "room", "availability", "last-seen"] {
                _ = try await watcher.waitFor("floorscan/tags/1/\(state)", payload: .empty)
            }
            // The publisher forgets a removed tag after its empty payloads are out; a tag registered
            // next is announced after that, so once its config is seen the first is forgotten
            // (the second is remembered just after its announcement, so it may not be yet).
            let keys = NewTag(name: "Keys", identity: .address(MACAddress(rawValue: 0xAA_BB_CC_00_11_33)))
            _ = try await switchd.client.call("POST", "/v1/tags", json: keys, as: ScanContract.Tag.self)
            _ = try await watcher.waitFor("homeassistant/device_tracker/floorscan_tag_2/location/config", payload: .nonEmpty)
            #expect(try await !switchd.database.mqttPublishedTags().contains(1))
        }
        await watcher.stop()
        await broker.remove()
    }

    /// A placed scanner that only listens is a receiver (its tracker, announced while it was not
    /// placed, is removed), online while it reports sightings; once it computes a position it
    /// moves, and gets its tracker back.
    @Test func aFixedScannerIsAReceiverUntilItMoves() async throws {
        let folder = try TemporaryFolder("mqtt-receiver")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(port: broker.port, topics: ["homeassistant/+/floorscan_fixed-1/#", "floorscan/scanners/fixed-1/#"], folder: folder)
        try await withMQTTSwitchd(broker: broker) { switchd in
            let (place, _) = try await Self.site(switchd)
            let trackers = try await watcher.waitFor(count: 2, "homeassistant/device_tracker/floorscan_fixed-1/location/config")
            #expect(trackers.map(\.payload.isEmpty) == [false, true], "announced as a tracker, then placed: removed")
            let connected = try await watcher.waitFor("homeassistant/binary_sensor/floorscan_fixed-1/connected/config", payload: .nonEmpty)
            #expect(try connected.decoded(DiscoveryConfig.self).deviceClass == "connectivity")
            _ = try await watcher.waitFor("homeassistant/sensor/floorscan_fixed-1/receive_offset/config", payload: .nonEmpty)
            let report = try await watcher.waitFor("floorscan/scanners/fixed-1/receiver", payload: .nonEmpty)
            let receiver = try report.decoded(ReceiverMessage.self, with: JSONCoding.decoder())
            #expect(receiver.floor == place.floor.id && receiver.x == 4 && receiver.receiveOffset == 0 && receiver.windowsPerMinute == nil)

            try await Self.hear(switchd)
            _ = try await watcher.waitFor("floorscan/scanners/fixed-1/availability", payload: .equal("online"))
            let lastSeen = try await watcher.waitFor("floorscan/scanners/fixed-1/last-seen", payload: .nonEmpty)
            #expect(JSONCoding.parseDate(lastSeen.payload) != nil)

            try await switchd.postPosition("fixed-1", in: place, x: 3)
            let back = try await watcher.waitFor(count: 3, "homeassistant/device_tracker/floorscan_fixed-1/location/config")
            #expect(back.map(\.payload.isEmpty) == [false, true, false], "it moves: tracker and receiver both")
            _ = try await watcher.waitFor("floorscan/scanners/fixed-1/room", payload: .equal("Kitchen"))
        }
        await watcher.stop()
        await broker.remove()
    }

    /// A tag deleted while switchd ran without a broker is removed on the next start with one
    /// (`mqtt_published_tag` remembers it was published).
    @Test func aTagDeletedWithoutABrokerIsRemovedOnTheNextStartWithOne() async throws {
        let folder = try TemporaryFolder("mqtt-tag-removal-later")
        defer { folder.remove() }
        let state = folder.path("state")
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(port: broker.port, topics: ["homeassistant/+/floorscan_tag_1/#", "floorscan/tags/1/#"], folder: folder)
        try await withMQTTSwitchd(broker: broker, database: try .open(stateDirectory: state)) { switchd in
            _ = try await Self.site(switchd)
            _ = try await watcher.waitFor("homeassistant/sensor/floorscan_tag_1/last_seen/config", payload: .nonEmpty)
            _ = try await watcher.waitFor("floorscan/tags/1/availability", payload: .nonEmpty)
        }
        let database = try AppDatabase.open(stateDirectory: state)
        #expect(try await database.mqttPublishedTags() == [1])
        let status = try await makeApp(database).test(.router) { client in
            try await client.execute(uri: "/v1/tags/1", method: .delete).status
        }
        #expect(status == .noContent)
        try await withMQTTSwitchd(broker: broker, database: database) { switchd in
            _ = try await watcher.waitFor(count: 8, "homeassistant/+/floorscan_tag_1/+/config", payload: .empty)
            _ = try await watcher.waitFor("floorscan/tags/1/availability", payload: .empty)
        }
        #expect(try await database.mqttPublishedTags().isEmpty)
        await watcher.stop()
        await broker.remove()
    }
}
