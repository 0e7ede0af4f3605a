import Foundation
import ScanContract
import Testing
@testable import switchd

/// Each scanner's and tag's Home Assistant discovery payloads, checked against Home Assistant's
/// documented schema (``HomeAssistantSchema``); `scripts/ha-test` runs them through a real one.
@Suite("Home Assistant discovery")
struct DiscoveryTests {
    let topics = MQTTTopics(prefix: "floorscan", discoveryPrefix: "homeassistant")
    var discovery: Discovery { Discovery(topics: topics, discoveryPrefix: "homeassistant") }

    static let trackerEntities = ["device_tracker/location", "sensor/floor", "sensor/x", "sensor/y", "sensor/accuracy"]
    static let receiverEntities = ["binary_sensor/connected", "sensor/windows_per_minute", "sensor/sightings_per_minute", "sensor/receive_offset"]

    @Test(arguments: ["pi-lab", "pi.lab_2", "default"])
    func everyPayloadFollowsTheSchema(id: String) throws {
        let scanner = ScanContract.Scanner(id: try ScannerID(id), name: "Lab \(id)")
        let roles: [(Discovery.ScannerRole, [String])] = [
            (.tracker, Self.trackerEntities), (.receiver, Self.receiverEntities), ([.tracker, .receiver], Self.trackerEntities + Self.receiverEntities),
        ]
        for (role, expected) in roles {
            #expect(discovery.entities(of: scanner, role: role).map { "\($0.component)/\($0.objectID)" } == expected + ["sensor/last_seen"])
            try Self.expectSchema(discovery.announce(scanner, role: role).filter { !$0.payload.isEmpty })
        }
    }

    @Test func aTagsPayloadsFollowTheSchema() throws {
        let tag = ScanContract.Tag(id: 7, name: "Bike", identity: .address(MACAddress(rawValue: 0xAA_BB_CC_00_11_22)), txPower: -59)
        #expect(discovery.entities(of: tag).map { "\($0.component)/\($0.objectID)" } == Self.trackerEntities + [
            "sensor/scanners_heard", "sensor/room_probability", "sensor/last_seen",
        ])
        let messages = try discovery.announce(tag)
        #expect(messages.allSatisfy { $0.topic.hasPrefix("homeassistant/") && $0.topic.contains("/floorscan_tag_7/") })
        try Self.expectSchema(messages)
    }

    /// A tag's battery entities join its device; a beacon's make one of their own. The binary
    /// sensor is Home Assistant's battery class (on: low), the sensor the voltage in mV.
    @Test func batteryEntitiesFollowTheSchema() throws {
        let tag = try discovery.announceBattery(of: .tag(7), named: "Bike", state: topics.tagTelemetry(7))
        #expect(tag.map(\.topic) == [
            "homeassistant/binary_sensor/floorscan_tag_7/battery_low/config", "homeassistant/sensor/floorscan_tag_7/battery_voltage/config",
        ])
        try Self.expectSchema(tag)
        let low = try JSONDecoder().decode(DiscoveryConfig.self, from: Data(tag[0].payload))
        #expect(low.deviceClass == "battery" && low.stateTopic == "floorscan/tags/7/telemetry" && low.device.identifiers == ["floorscan_tag_7"])
        let voltage = try JSONDecoder().decode(DiscoveryConfig.self, from: Data(tag[1].payload))
        #expect(voltage.deviceClass == "voltage" && voltage.unitOfMeasurement == "mV")
        let beacon = try discovery.announceBattery(of: .beacon(3), named: "Beacon 4.2", state: topics.beaconTelemetry(3))
        try Self.expectSchema(beacon)
        #expect(beacon.allSatisfy { $0.topic.contains("/floorscan_beacon_3/") })
        #expect(discovery.removeBattery(of: .beacon(3)).map(\.topic) == beacon.map(\.topic))
    }

    static func expectSchema(_ messages: [MQTTMessage]) throws {
        for message in messages {
            let component = String(message.topic.split(separator: "/")[1])
            let problems = HomeAssistantSchema.problems(
                component: component, topic: message.topic, payload: Data(message.payload), discoveryPrefix: "homeassistant"
            )
            #expect(problems.isEmpty, "\(problems)")
            #expect(message.retain && message.qos == .atLeastOnce)
        }
    }

    /// The schema check itself finds what it should: a measurement without a precision's kind of
    /// problem, a binary sensor left with Home Assistant's ON/OFF.
    @Test func theSchemaCheckFindsBadPayloads() throws {
        let topic = "homeassistant/binary_sensor/floorscan_x/connected/config"
        let binary = #"{"state_topic":"t","unique_id":"u","device_class":"connectivity"}"#
        #expect(HomeAssistantSchema.problems(component: "binary_sensor", topic: topic, payload: Data(binary.utf8), discoveryPrefix: "homeassistant").count == 2)
        let sensor = #"{"state_topic":"t","unique_id":"u","state_class":"measurement","suggested_display_precision":-1}"#
        let problems = HomeAssistantSchema.problems(
            component: "sensor", topic: "homeassistant/sensor/floorscan_x/x/config", payload: Data(sensor.utf8), discoveryPrefix: "homeassistant"
        )
        #expect(problems.count == 2, "\(problems)")
    }

    /// A placed scanner that does not move is a receiver: no tracker, whose position would never
    /// change; announcing it so empties the tracker configurations it may have had.
    @Test func aReceiverIsAnnouncedWithoutATrackerAndLosesAnOldOne() throws {
        let scanner = ScanContract.Scanner(id: try ScannerID("fixed-1"), name: "Receiver 1")
        #expect(Discovery.ScannerRole.of(placed: true, moves: false) == .receiver)
        #expect(Discovery.ScannerRole.of(placed: true, moves: true) == [.tracker, .receiver])
        #expect(Discovery.ScannerRole.of(placed: false, moves: false) == .tracker)
        let messages = try discovery.announce(scanner, role: .receiver)
        let emptied = Set(messages.filter(\.payload.isEmpty).map(\.topic))
        #expect(emptied == Set(["device_tracker/floorscan_fixed-1/location", "sensor/floorscan_fixed-1/floor", "sensor/floorscan_fixed-1/x",
                                 "sensor/floorscan_fixed-1/y", "sensor/floorscan_fixed-1/accuracy"].map { "homeassistant/\($0)/config" }))
        let connected = try #require(discovery.entities(of: scanner, role: .receiver).first { $0.objectID == "connected" }).config
        #expect(connected.stateTopic == "floorscan/scanners/fixed-1/availability")
        #expect(connected.payloadOn == "online" && connected.payloadOff == "offline" && connected.deviceClass == "connectivity")
        #expect(connected.availability.map(\.topic) == ["floorscan/status"], "disconnected, not unavailable, while switchd is up")
        #expect(discovery.entities(of: scanner, role: .receiver).filter { $0.component == "sensor" && $0.objectID != "last_seen" }
            .allSatisfy { $0.config.stateTopic == "floorscan/scanners/fixed-1/receiver" })
    }

    @Test func aTagsTrackerFollowsItsRoomAndNumbersAreRounded() throws {
        let tag = ScanContract.Tag(id: 7, name: "Bike", identity: .address(MACAddress(rawValue: 1)), txPower: -59)
        let entities = discovery.entities(of: tag)
        let tracker = try #require(entities.first).config
        #expect(tracker.stateTopic == "floorscan/tags/7/room" && tracker.jsonAttributesTopic == "floorscan/tags/7/position")
        #expect(Set(entities.map(\.config.device)).count == 1 && entities.first?.config.device.name == "Bike")
        #expect(entities.allSatisfy { $0.config.availability.map(\.topic) == ["floorscan/status", "floorscan/tags/7/availability"] })
        for entity in entities where entity.config.stateClass != nil {
            #expect(entity.config.suggestedDisplayPrecision != nil, "\(entity.objectID)")
        }
        let removal = discovery.remove(tag: 7)
        #expect(removal.map(\.topic) == (try discovery.announce(tag)).map(\.topic) && removal.allSatisfy { $0.payload.isEmpty && $0.retain })
        #expect(topics.removal(ofTag: 7).suffix(4).map(\.topic) == [
            "floorscan/tags/7/position", "floorscan/tags/7/room", "floorscan/tags/7/availability", "floorscan/tags/7/last-seen",
        ])
    }

    @Test func theTrackerFollowsTheRoomAndAllEntitiesShareOneDevice() throws {
        let scanner = ScanContract.Scanner(id: try ScannerID("pi-lab"), name: "Lab")
        let configs = discovery.entities(of: scanner).map(\.config)
        let tracker = try #require(configs.first)
        #expect(tracker.stateTopic == "floorscan/scanners/pi-lab/room")
        #expect(tracker.jsonAttributesTopic == "floorscan/scanners/pi-lab/position")
        #expect(Set(configs.map(\.device)).count == 1)
        #expect(Set(configs.map(\.uniqueID)).count == configs.count)
        #expect(configs.allSatisfy { $0.availability.map(\.topic) == ["floorscan/status", "floorscan/scanners/pi-lab/availability"] })
        #expect(configs.last?.deviceClass == "timestamp" && configs.last?.stateTopic == "floorscan/scanners/pi-lab/last-seen")
    }

    @Test func scannerIDsThatDifferOnlyInPunctuationGetDifferentNodes() throws {
        let ids = try ["pi.lab", "pi_lab", "pi-lab", "pi_2Elab"].map { Discovery.nodeID(of: try ScannerID($0)) }
        #expect(Set(ids).count == ids.count, "\(ids)")
    }

    @Test func removalIsAnEmptyRetainedConfigurationOnEveryTopic() throws {
        let id = try ScannerID("pi-lab")
        let removal = discovery.remove(id)
        let announced = try discovery.announce(ScanContract.Scanner(id: id, name: "Lab"), role: [.tracker, .receiver])
        #expect(removal.map(\.topic) == announced.map(\.topic))
        // A tracker that was a receiver too in this connection loses its receiver entities only.
        let unplaced = try discovery.announce(ScanContract.Scanner(id: id, name: "Lab"), role: .tracker, replacing: [.tracker, .receiver])
        #expect(unplaced.filter(\.payload.isEmpty).map { $0.topic.split(separator: "/")[3] } == ["connected", "windows_per_minute", "sightings_per_minute", "receive_offset"])
        #expect(try discovery.announce(ScanContract.Scanner(id: id, name: "Lab")).allSatisfy { !$0.payload.isEmpty }, "a tracker found anew empties nothing")
        #expect(removal.allSatisfy { $0.payload.isEmpty && $0.retain })
    }

    @Test func theCommandTopicNamesItsScanner() throws {
        #expect(topics.scannerOfSwitchCommand("floorscan/scanners/pi-lab/switch/set") == (try ScannerID("pi-lab")))
        #expect(topics.scannerOfSwitchCommand("floorscan/scanners/pi-lab/switch") == nil)
        #expect(topics.scannerOfSwitchCommand("other/scanners/pi-lab/switch/set") == nil)
        let nested = MQTTTopics(prefix: "site/a", discoveryPrefix: nil)
        #expect(nested.scannerOfSwitchCommand("site/a/scanners/x/switch/set") == (try ScannerID("x")))
    }
}
