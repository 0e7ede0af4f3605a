import ScanContract

/// The discovery configurations of scanners and tags, each retained on
/// `<discovery-prefix>/<component>/<node>/<object>/config`; an empty retained payload there
/// removes the entity from Home Assistant.
///
/// - A scanner that moves (it computed positions) or is not placed: a `device_tracker` whose
///   state is its room, and sensors for its floor, x, y, accuracy and when switchd last heard
///   from it.
/// - A placed scanner that does not move (a fixed receiver): a connectivity `binary_sensor`, and
///   sensors for when it last reported, the windows and sightings it reports a minute and the
///   receive offset estimated from calibration; no tracker, whose position would never change.
/// - A placed scanner that moves too: both.
/// - A tag: a `device_tracker` whose state is its room, with the position (and latitude,
///   longitude and `gps_accuracy` on a geo-referenced floor) as attributes, and sensors for its
///   floor, x, y, accuracy, the scanners that heard it, the belief in its room and when it was
///   last located.
struct Discovery: Sendable {
    let topics: MQTTTopics
    let discoveryPrefix: String

    /// One entity: where its configuration goes and what it says.
    struct Entity: Sendable {
        var component: String
        var objectID: String
        var config: DiscoveryConfig
    }

    /// What a scanner is announced as.
    struct ScannerRole: OptionSet, Sendable, Hashable {
        let rawValue: Int
        /// It moves: its tracker and position sensors.
        static let tracker = ScannerRole(rawValue: 1)
        /// It is placed and listens: its receiver sensors.
        static let receiver = ScannerRole(rawValue: 2)

        /// A scanner placed as a fixed receiver is a receiver, and a tracker too once it has
        /// computed a position; any other scanner is a tracker (one just registered has not
        /// moved yet, but what else would it be).
        static func of(placed: Bool, moves: Bool) -> ScannerRole {
            placed ? (moves ? [.tracker, .receiver] : .receiver) : .tracker
        }
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

    /// `floorscan_tag_<id>`: no scanner's node, whose `_` is always followed by two hex digits
    /// of `.` or `_` (`2E`, `5F`).
    static func nodeID(ofTag tagID: Int64) -> String {
        "floorscan_tag_\(tagID)"
    }

    func configTopic(_ entity: Entity, node: String) -> String {
        "\(discoveryPrefix)/\(entity.component)/\(node)/\(entity.objectID)/config"
    }

    /// The scanner's entities in `role`, all sharing one device.
    func entities(of scanner: ScanContract.Scanner, role: ScannerRole = .tracker) -> [Entity] {
        let node = Self.nodeID(of: scanner.id)
        let maker = EntityMaker(
            node: node, device: DiscoveryConfig.Device(identifiers: [node], name: scanner.name, manufacturer: "floorscan", model: "scannerd"),
            availability: [available(topics.status), available(topics.availability(scanner.id))]
        )
        var entities: [Entity] = []
        if role.contains(.tracker) {
            entities += maker.tracker(room: topics.room(scanner.id), position: topics.position(scanner.id))
            entities += maker.placeSensors(position: topics.position(scanner.id))
        }
        if role.contains(.receiver) {
            entities += receiverEntities(of: scanner.id, maker)
        }
        entities.append(maker.lastSeen(topics.lastSeen(scanner.id)))
        return entities
    }

    /// A receiver's connectivity (from its availability, shown as disconnected rather than
    /// unavailable while switchd is up), its rates and its receive offset.
    private func receiverEntities(of scanner: ScannerID, _ maker: EntityMaker) -> [Entity] {
        var connected = maker.config("Connected", "connected", state: topics.availability(scanner))
        connected.availability = [available(topics.status)]
        connected.availabilityMode = "latest"
        connected.deviceClass = "connectivity"
        connected.payloadOn = MQTTAvailability.online.rawValue
        connected.payloadOff = MQTTAvailability.offline.rawValue
        connected.entityCategory = "diagnostic"
        var entities = [Entity(component: "binary_sensor", objectID: "connected", config: connected)]
        let receiver = topics.receiver(scanner)
        for (name, objectID, field, unit) in [
            ("Windows per minute", "windows_per_minute", "windowsPerMinute", "windows/min"),
            ("Sightings per minute", "sightings_per_minute", "sightingsPerMinute", "sightings/min"),
        ] {
            var rate = maker.config(name, objectID, state: receiver)
            rate.valueTemplate = Self.field(field)
            rate.stateClass = "measurement"
            rate.unitOfMeasurement = unit
            rate.suggestedDisplayPrecision = 0
            rate.icon = "mdi:radar"
            entities.append(Entity(component: "sensor", objectID: objectID, config: rate))
        }
        var offset = maker.config("Estimated receive offset", "receive_offset", state: receiver)
        offset.valueTemplate = Self.field("estimatedReceiveOffset")
        offset.stateClass = "measurement"
        offset.unitOfMeasurement = "dB"
        offset.suggestedDisplayPrecision = 1
        offset.entityCategory = "diagnostic"
        offset.icon = "mdi:tune-vertical"
        entities.append(Entity(component: "sensor", objectID: "receive_offset", config: offset))
        return entities
    }

    /// The tag's entities, all sharing one device.
    func entities(of tag: Tag) -> [Entity] {
        entities(ofTag: tag.id, named: tag.name)
    }

    private func entities(ofTag tagID: Int64, named name: String) -> [Entity] {
        let node = Self.nodeID(ofTag: tagID)
        let maker = EntityMaker(
            node: node, device: DiscoveryConfig.Device(identifiers: [node], name: name, manufacturer: "floorscan", model: "BLE tag"),
            availability: [available(topics.status), available(topics.tagAvailability(tagID))]
        )
        let position = topics.tagPosition(tagID)
        var entities = maker.tracker(room: topics.tagRoom(tagID), position: position) + maker.placeSensors(position: position)
        var heard = maker.config("Scanners heard", "scanners_heard", state: position)
        heard.valueTemplate = Self.field("scannersHeard")
        heard.stateClass = "measurement"
        heard.suggestedDisplayPrecision = 0
        heard.icon = "mdi:access-point"
        entities.append(Entity(component: "sensor", objectID: "scanners_heard", config: heard))
        var belief = maker.config("Room probability", "room_probability", state: position)
        belief.valueTemplate = Self.field("roomProbability", scale: 100)
        belief.stateClass = "measurement"
        belief.unitOfMeasurement = "%"
        belief.suggestedDisplayPrecision = 0
        belief.icon = "mdi:home-percent"
        entities.append(Entity(component: "sensor", objectID: "room_probability", config: belief))
        entities.append(maker.lastSeen(topics.tagLastSeen(tagID)))
        return entities
    }

    /// A number field of a JSON state, `None` (unknown) when the message has none.
    private static func field(_ name: String, scale: Double? = nil) -> String {
        let value = scale.map { "(value_json.\(name) * \($0)) | round(1)" } ?? "value_json.\(name)"
        return "{{ \(value) if value_json.\(name) is defined and value_json.\(name) is not none else none }}"
    }

    private func available(_ topic: String) -> DiscoveryConfig.Availability {
        DiscoveryConfig.Availability(topic: topic, payloadAvailable: MQTTAvailability.online.rawValue, payloadNotAvailable: MQTTAvailability.offline.rawValue)
    }

    /// Configurations of one device's entities.
    private struct EntityMaker {
        let node: String
        let device: DiscoveryConfig.Device
        /// `all` of these: available only while switchd and the scanner (or tag) both are.
        let availability: [DiscoveryConfig.Availability]

        func config(_ name: String?, _ objectID: String, state: String) -> DiscoveryConfig {
            DiscoveryConfig(
                name: name, uniqueID: "\(node)_\(objectID)", stateTopic: state, availability: availability, availabilityMode: "all",
                device: device, origin: .init(name: "floorscan switchd"), qos: 1
            )
        }

        /// The tracker: its state the room's name, its attributes the position message (with
        /// `latitude`, `longitude` and `gps_accuracy` on a geo-referenced floor, which put it
        /// on Home Assistant's map).
        func tracker(room: String, position: String) -> [Entity] {
            var tracker = config(nil, "location", state: room)
            tracker.jsonAttributesTopic = position
            // Indoors and from radio: Home Assistant's source types are gps, router, bluetooth and
            // bluetooth_le. Its state stays the room's name whatever the source (a named location
            // wins over zones).
            tracker.sourceType = "bluetooth_le"
            return [Entity(component: "device_tracker", objectID: "location", config: tracker)]
        }

        /// Floor, x, y and accuracy from a position message (whose metres are to the centimetre),
        /// shown to the decimetre.
        func placeSensors(position: String) -> [Entity] {
            var floor = config("Floor", "floor", state: position)
            floor.valueTemplate = "{{ value_json.floorName | default(value_json.floor, true) }}"
            floor.icon = "mdi:floor-plan"
            var entities = [Entity(component: "sensor", objectID: "floor", config: floor)]
            for (name, field) in [("X", "x"), ("Y", "y"), ("Accuracy", "accuracy")] {
                var metres = config(name, field, state: position)
                metres.valueTemplate = "{{ value_json.\(field) }}"
                metres.deviceClass = "distance"
                metres.stateClass = "measurement"
                metres.unitOfMeasurement = "m"
                metres.suggestedDisplayPrecision = 1
                entities.append(Entity(component: "sensor", objectID: field, config: metres))
            }
            return entities
        }

        func lastSeen(_ topic: String) -> Entity {
            var lastSeen = config("Last seen", "last_seen", state: topic)
            lastSeen.deviceClass = "timestamp"
            return Entity(component: "sensor", objectID: "last_seen", config: lastSeen)
        }
    }

    /// The retained messages that publish `scanner`'s entities in `role`, and empty ones that
    /// remove those of the role it had before (`previous`, when this connection announced it)
    /// that it no longer has. A receiver's tracker entities are always removed: it may have been
    /// announced as a tracker before it was placed, or by a switchd that had no receivers.
    func announce(_ scanner: ScanContract.Scanner, role: ScannerRole = .tracker, replacing previous: ScannerRole = []) throws -> [MQTTMessage] {
        let announced = entities(of: scanner, role: role)
        let node = Self.nodeID(of: scanner.id)
        let kept = Set(announced.map { configTopic($0, node: node) })
        let stale = role.contains(.tracker) ? previous : previous.union(.tracker)
        return try announced.map { try .json($0.config, topic: configTopic($0, node: node), retain: true) }
            + emptied(entities(of: scanner, role: stale), node: node).filter { !kept.contains($0.topic) }
    }

    /// The empty retained messages that remove a gone scanner's entities, whatever its role.
    func remove(_ scannerID: ScannerID) -> [MQTTMessage] {
        let node = Self.nodeID(of: scannerID)
        return emptied(entities(of: ScanContract.Scanner(id: scannerID, name: scannerID.rawValue), role: [.tracker, .receiver]), node: node)
    }

    /// The retained messages that publish `tag`'s entities.
    func announce(_ tag: Tag) throws -> [MQTTMessage] {
        let node = Self.nodeID(ofTag: tag.id)
        return try entities(of: tag).map { try .json($0.config, topic: configTopic($0, node: node), retain: true) }
    }

    /// The empty retained messages that remove a deleted tag's entities.
    func remove(tag tagID: Int64) -> [MQTTMessage] {
        emptied(entities(ofTag: tagID, named: ""), node: Self.nodeID(ofTag: tagID))
    }

    private func emptied(_ entities: [Entity], node: String) -> [MQTTMessage] {
        entities.map { MQTTMessage(topic: configTopic($0, node: node), payload: [], qos: .atLeastOnce, retain: true) }
    }
}
