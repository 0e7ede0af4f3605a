import Foundation

/// Home Assistant's MQTT discovery schema for the three components switchd announces, written
/// from Home Assistant's documentation (integrations/mqtt "Discovery", device_tracker.mqtt,
/// sensor.mqtt, binary_sensor.mqtt, and the device classes): which keys each may carry, which
/// it must, and the values a few of them allow. A unit test's quick check; `scripts/ha-test`
/// runs the payloads through a real Home Assistant core.
enum HomeAssistantSchema {
    /// Options every MQTT entity takes.
    static let commonKeys: Set<String> = [
        "availability", "availability_mode", "availability_template", "availability_topic", "device", "enabled_by_default",
        "encoding", "entity_category", "entity_picture", "icon", "json_attributes_template", "json_attributes_topic", "name",
        "object_id", "default_entity_id", "origin", "payload_available", "payload_not_available", "qos", "unique_id",
        "value_template", "state_topic",
    ]
    static let componentKeys: [String: Set<String>] = [
        "device_tracker": ["payload_home", "payload_not_home", "payload_reset", "source_type"],
        "sensor": [
            "device_class", "expire_after", "force_update", "last_reset_value_template", "options", "suggested_display_precision",
            "state_class", "unit_of_measurement",
        ],
        "binary_sensor": ["device_class", "expire_after", "force_update", "off_delay", "payload_off", "payload_on"],
    ]
    static let entityCategories: Set<String> = ["config", "diagnostic"]
    /// The binary sensor device classes switchd should use.
    static let binarySensorClasses: Set<String> = ["connectivity", "battery"]
    static let sourceTypes: Set<String> = ["gps", "router", "bluetooth", "bluetooth_le"]
    static let stateClasses: Set<String> = ["measurement", "measurement_angle", "total", "total_increasing"]
    /// The distance device class's units.
    static let distanceUnits: Set<String> = ["km", "m", "cm", "mm", "mi", "nmi", "yd", "in", "ft"]
    /// The voltage device class's units.
    static let voltageUnits: Set<String> = ["V", "mV", "µV", "kV", "MV"]
    static let deviceKeys: Set<String> = [
        "configuration_url", "connections", "hw_version", "identifiers", "manufacturer", "model", "model_id", "name",
        "serial_number", "suggested_area", "sw_version", "via_device",
    ]

    /// What is wrong with `payload` as the configuration of a `component` on `topic`; empty when nothing is.
    static func problems(component: String, topic: String, payload: Data, discoveryPrefix: String) -> [String] {
        var problems: [String] = []
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let idCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
        if parts.count != 5 || parts[0] != discoveryPrefix || parts[1] != component || parts[4] != "config" {
            problems.append("\(topic) is not <prefix>/\(component)/<node_id>/<object_id>/config")
        } else {
            for id in parts[2...3] where id.isEmpty || id.unicodeScalars.contains(where: { !idCharacters.contains($0) }) {
                problems.append("\(topic): '\(id)' holds characters other than [a-zA-Z0-9_-]")
            }
        }
        guard let config = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any] else {
            return problems + ["\(topic): the payload is not a JSON object"]
        }
        let allowed = commonKeys.union(componentKeys[component] ?? [])
        for key in config.keys.sorted() where !allowed.contains(key) {
            problems.append("\(topic): '\(key)' is no option of an MQTT \(component)")
        }
        if (config["state_topic"] as? String)?.isEmpty != false { problems.append("\(topic): no state_topic") }
        if let qos = config["qos"], ![0, 1, 2].contains(qos as? Int) { problems.append("\(topic): qos must be 0, 1 or 2") }
        if let mode = config["availability_mode"], !["all", "any", "latest"].contains(mode as? String) {
            problems.append("\(topic): availability_mode must be all, any or latest")
        }
        if let availability = config["availability"] {
            let entries = availability as? [[String: Any]] ?? []
            if entries.isEmpty { problems.append("\(topic): availability must be a list of {topic, …}") }
            for entry in entries where (entry["topic"] as? String)?.isEmpty != false {
                problems.append("\(topic): an availability entry has no topic")
            }
            if config["availability_topic"] != nil { problems.append("\(topic): availability and availability_topic go not together") }
        }
        if config["unique_id"] == nil, config["device"] != nil { problems.append("\(topic): a device needs a unique_id") }
        if let device = config["device"] {
            if let device = device as? [String: Any] {
                for key in device.keys where !deviceKeys.contains(key) { problems.append("\(topic): device key '\(key)' is unknown") }
                if (device["identifiers"] as? [String])?.isEmpty != false, device["connections"] == nil {
                    problems.append("\(topic): a device needs identifiers or connections")
                }
            } else {
                problems.append("\(topic): device must be an object")
            }
        }
        if let origin = config["origin"], ((origin as? [String: Any])?["name"] as? String)?.isEmpty != false {
            problems.append("\(topic): origin needs a name")
        }
        if let category = config["entity_category"], !entityCategories.contains(category as? String ?? "") {
            problems.append("\(topic): entity_category must be one of \(entityCategories.sorted())")
        }
        switch component {
        case "device_tracker":
            if let source = config["source_type"], !sourceTypes.contains(source as? String ?? "") {
                problems.append("\(topic): source_type must be one of \(sourceTypes.sorted())")
            }
        case "binary_sensor":
            if let deviceClass = config["device_class"], !binarySensorClasses.contains(deviceClass as? String ?? "") {
                problems.append("\(topic): device_class must be one of \(binarySensorClasses.sorted())")
            }
            for key in ["payload_on", "payload_off"] where (config[key] as? String)?.isEmpty != false {
                problems.append("\(topic): \(key) must say which state payload it is (switchd's are not ON/OFF)")
            }
        case "sensor":
            if let stateClass = config["state_class"], !stateClasses.contains(stateClass as? String ?? "") {
                problems.append("\(topic): state_class must be one of \(stateClasses.sorted())")
            }
            if let precision = config["suggested_display_precision"], !((precision as? Int).map { $0 >= 0 } ?? false) {
                problems.append("\(topic): suggested_display_precision must be a whole number of decimals")
            }
            if config["state_class"] != nil, config["device_class"] as? String != "timestamp", config["value_template"] == nil {
                problems.append("\(topic): a measurement needs a value_template picking its number from the JSON state")
            }
            switch config["device_class"] as? String {
            case "distance":
                if !distanceUnits.contains(config["unit_of_measurement"] as? String ?? "") {
                    problems.append("\(topic): a distance sensor needs a unit of \(distanceUnits.sorted())")
                }
            case "voltage":
                if !voltageUnits.contains(config["unit_of_measurement"] as? String ?? "") {
                    problems.append("\(topic): a voltage sensor needs a unit of \(voltageUnits.sorted())")
                }
            case "timestamp":
                if config["unit_of_measurement"] != nil || config["state_class"] != nil {
                    problems.append("\(topic): a timestamp sensor takes neither unit nor state_class")
                }
            case nil:
                break
            case let other?:
                problems.append("\(topic): device_class '\(other)' is not one switchd should use")
            }
        default:
            problems.append("\(topic): \(component) is not a component switchd announces")
        }
        return problems
    }
}
