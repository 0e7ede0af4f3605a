import SwitchdStore

/// The battery entities of a tag or a beacon with Eddystone-TLM telemetry: a `binary_sensor`
/// of device class `battery` (on: low, switchd's `batteryLow`, Home Assistant's meaning of that
/// class) and a `sensor` of the battery voltage in mV (device class `voltage`). TLM gives volts,
/// not a charge: no percentage is made up from them, as the curve differs by cell. A tag's join
/// its device; a beacon gets a device of its own (`floorscan_beacon_<id>`). Available while
/// switchd is: a battery reading stays true while the emitter is out of earshot.
extension Discovery {
    /// `floorscan_beacon_<id>`: no scanner's node (see ``nodeID(ofTag:)``).
    static func nodeID(ofBeacon beaconID: Int64) -> String {
        "floorscan_beacon_\(beaconID)"
    }

    func batteryEntities(of subject: TelemetrySubject, named name: String, state: String) -> [Entity] {
        let node = Self.node(of: subject)
        let device = DiscoveryConfig.Device(
            identifiers: [node], name: name, manufacturer: "floorscan", model: subject.tagID != nil ? "BLE tag" : "BLE beacon"
        )
        func config(_ name: String, _ objectID: String) -> DiscoveryConfig {
            DiscoveryConfig(
                name: name, uniqueID: "\(node)_\(objectID)", stateTopic: state,
                availability: [DiscoveryConfig.Availability(
                    topic: topics.status, payloadAvailable: MQTTAvailability.online.rawValue, payloadNotAvailable: MQTTAvailability.offline.rawValue
                )],
                availabilityMode: "all", device: device, origin: .init(name: "floorscan switchd"), qos: 1
            )
        }
        var low = config("Battery", "battery_low")
        low.deviceClass = "battery"
        low.valueTemplate = "{{ 'ON' if value_json.batteryLow else 'OFF' }}"
        low.payloadOn = "ON"
        low.payloadOff = "OFF"
        low.entityCategory = "diagnostic"
        var voltage = config("Battery voltage", "battery_voltage")
        voltage.deviceClass = "voltage"
        voltage.stateClass = "measurement"
        voltage.unitOfMeasurement = "mV"
        voltage.suggestedDisplayPrecision = 0
        voltage.valueTemplate = "{{ value_json.batteryMillivolts if value_json.batteryMillivolts is defined and value_json.batteryMillivolts is not none else none }}"
        voltage.entityCategory = "diagnostic"
        return [
            Entity(component: "binary_sensor", objectID: "battery_low", config: low),
            Entity(component: "sensor", objectID: "battery_voltage", config: voltage),
        ]
    }

    /// The retained messages that publish the battery entities.
    func announceBattery(of subject: TelemetrySubject, named name: String, state: String) throws -> [MQTTMessage] {
        let node = Self.node(of: subject)
        return try batteryEntities(of: subject, named: name, state: state).map { try .json($0.config, topic: configTopic($0, node: node), retain: true) }
    }

    /// The empty retained messages that remove them.
    func removeBattery(of subject: TelemetrySubject) -> [MQTTMessage] {
        let node = Self.node(of: subject)
        return batteryEntities(of: subject, named: "", state: "").map {
            MQTTMessage(topic: configTopic($0, node: node), payload: [], qos: .atLeastOnce, retain: true)
        }
    }

    private static func node(of subject: TelemetrySubject) -> String {
        switch subject {
        case .tag(let id): nodeID(ofTag: id)
        case .beacon(let id): nodeID(ofBeacon: id)
        }
    }
}
