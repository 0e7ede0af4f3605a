import ScanContract

/// The discovery configurations of one scanner: a `device_tracker` whose state is the scanner's
/// room, and sensors for its floor, x, y, accuracy and when switchd last heard from it. Each is
/// retained on `<discovery-prefix>/<component>/<node>/<object>/config`; an empty retained payload
/// there removes the entity from Home Assistant.
struct Discovery: Sendable {
    let topics: MQTTTopics
    let discoveryPrefix: String

    /// One entity: where its configuration goes and what it says.
    struct Entity: Sendable {
        var component: String
        var objectID: String
        var config: DiscoveryConfig
    }

    /// Home Assistant allows only `A–Z a–z 0–9 _ -` in a node ID; a scanner ID may also hold `.`.
    /// Every character outside `A–Z a–z 0–9 -` becomes `_` and its hex code, so two scanner IDs
    /// never share a node ID (`pi.lab` is `floorscan_pi_2Elab`, `pi_lab` is `floorscan_pi_5Flab`).
    static func nodeID(of scanner: ScannerID) -> String {
        var node = "floorscan_"
        for byte in scanner.rawValue.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                node.append(Character(UnicodeScalar(byte)))
            default:
                node += "_" + String(byte, radix: 16, uppercase: true)
            }
        }
        return node
    }

    func configTopic(_ entity: Entity, of scanner: ScannerID) -> String {
        "\(discoveryPrefix)/\(entity.component)/\(Self.nodeID(of: scanner))/\(entity.objectID)/config"
    }

    /// The scanner's entities, all sharing one device.
    func entities(of scanner: ScanContract.Scanner) -> [Entity] {
        let node = Self.nodeID(of: scanner.id)
        let device = DiscoveryConfig.Device(identifiers: [node], name: scanner.name, manufacturer: "floorscan", model: "scannerd")
        let availability = [
            DiscoveryConfig.Availability(topic: topics.status, payloadAvailable: "online", payloadNotAvailable: "offline"),
            DiscoveryConfig.Availability(topic: topics.availability(scanner.id), payloadAvailable: "online", payloadNotAvailable: "offline"),
        ]
        func config(_ name: String?, _ objectID: String, state: String) -> DiscoveryConfig {
            DiscoveryConfig(
                name: name, uniqueID: "\(node)_\(objectID)", stateTopic: state, availability: availability, availabilityMode: "all",
                device: device, origin: .init(name: "floorscan switchd"), qos: 1
            )
        }
        var tracker = config(nil, "location", state: topics.room(scanner.id))
        tracker.jsonAttributesTopic = topics.position(scanner.id)
        // Indoors and from radio: Home Assistant's source types are gps, router, bluetooth and
        // bluetooth_le; a gps tracker would need latitude and longitude, which floorscan has not.
        tracker.sourceType = "bluetooth_le"
        let position = topics.position(scanner.id)
        var floor = config("Floor", "floor", state: position)
        floor.valueTemplate = "{{ value_json.floorName if value_json.floorName is not none else value_json.floor }}"
        floor.icon = "mdi:floor-plan"
        var entities = [Entity(component: "device_tracker", objectID: "location", config: tracker), Entity(component: "sensor", objectID: "floor", config: floor)]
        for (name, field) in [("X", "x"), ("Y", "y"), ("Accuracy", "accuracy")] {
            var metres = config(name, field, state: position)
            metres.valueTemplate = "{{ value_json.\(field) }}"
            metres.deviceClass = "distance"
            metres.stateClass = "measurement"
            metres.unitOfMeasurement = "m"
            entities.append(Entity(component: "sensor", objectID: field, config: metres))
        }
        var lastSeen = config("Last seen", "last_seen", state: topics.lastSeen(scanner.id))
        lastSeen.deviceClass = "timestamp"
        entities.append(Entity(component: "sensor", objectID: "last_seen", config: lastSeen))
        return entities
    }

    /// The retained messages that publish `scanner`'s entities.
    func announce(_ scanner: ScanContract.Scanner) throws -> [MQTTMessage] {
        try entities(of: scanner).map { entity in
            try .json(entity.config, topic: configTopic(entity, of: scanner.id), retain: true)
        }
    }

    /// The empty retained messages that remove a gone scanner's entities.
    func remove(_ scannerID: ScannerID) -> [MQTTMessage] {
        entities(of: ScanContract.Scanner(id: scannerID, name: scannerID.rawValue)).map { entity in
            MQTTMessage(topic: configTopic(entity, of: scannerID), payload: [], qos: .atLeastOnce, retain: true)
        }
    }
}
