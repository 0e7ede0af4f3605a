/// One Home Assistant MQTT discovery configuration, with the keys Home Assistant's MQTT
/// documentation gives for `device_tracker`, `sensor` and `binary_sensor` (full names, not
/// abbreviations).
/// Keys left nil are not written.
struct DiscoveryConfig: Codable, Sendable, Equatable {
    var name: String?
    var uniqueID: String
    var stateTopic: String
    var valueTemplate: String?
    var jsonAttributesTopic: String?
    /// `device_tracker` only: where the position comes from.
    var sourceType: String?
    /// `sensor` and `binary_sensor`.
    var deviceClass: String?
    /// `sensor` only.
    var stateClass: String?
    var unitOfMeasurement: String?
    /// `sensor` only: how many decimals Home Assistant shows.
    var suggestedDisplayPrecision: Int?
    /// `binary_sensor` only: the payloads that mean on and off.
    var payloadOn: String?
    var payloadOff: String?
    /// `diagnostic` for what is about the device rather than what it measures.
    var entityCategory: String?
    var icon: String?
    var availability: [Availability]
    /// `all`: available only while switchd and the scanner both are.
    var availabilityMode: String
    var device: Device
    var origin: Origin
    var qos: Int

    struct Availability: Codable, Sendable, Equatable {
        var topic: String
        var payloadAvailable: String
        var payloadNotAvailable: String

        enum CodingKeys: String, CodingKey {
            case topic, payloadAvailable = "payload_available", payloadNotAvailable = "payload_not_available"
        }
    }

    struct Device: Codable, Sendable, Hashable {
        var identifiers: [String]
        var name: String
        var manufacturer: String
        var model: String
    }

    /// What published the configuration (Home Assistant logs it).
    struct Origin: Codable, Sendable, Equatable {
        var name: String
    }

    enum CodingKeys: String, CodingKey {
        case name, uniqueID = "unique_id", stateTopic = "state_topic", valueTemplate = "value_template"
        case jsonAttributesTopic = "json_attributes_topic", sourceType = "source_type", deviceClass = "device_class"
        case stateClass = "state_class", unitOfMeasurement = "unit_of_measurement", suggestedDisplayPrecision = "suggested_display_precision"
        case payloadOn = "payload_on", payloadOff = "payload_off", entityCategory = "entity_category", icon, availability
        case availabilityMode = "availability_mode", device, origin, qos
    }
}
