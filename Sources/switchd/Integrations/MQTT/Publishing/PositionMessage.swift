import Foundation
import ScanContract

/// The retained JSON on `<prefix>/scanners/<id>/position`: a stored ``Position`` with the names
/// of its floor and room, so a subscriber needs no second lookup; metres to the centimetre.
/// On a geo-referenced floor it also carries `latitude`, `longitude` and `gps_accuracy`, the
/// attributes Home Assistant's tracker takes to put the scanner on its map.
struct PositionMessage: Codable, Sendable, Equatable {
    var scannerID: ScannerID
    var building: String
    /// The floor's ID, and its name (nil when the floor has none set).
    var floor: Int64
    var floorName: String?
    var x: Double
    var y: Double
    /// The room's name; nil when the position is in no room.
    var room: String?
    var roomID: Int64?
    var accuracy: Double
    var method: String
    /// When the scanner computed the position.
    var time: Date
    /// The position's ID in `/v1/positions`.
    var positionID: Int64
    var latitude: Double?
    var longitude: Double?
    /// The accuracy in whole metres, as Home Assistant's `gps_accuracy`; only with a latitude.
    var gpsAccuracy: Int?

    init(_ position: Position, floorName: String?, roomName: String?) {
        scannerID = position.scannerID
        building = position.building
        floor = position.floor
        self.floorName = floorName
        x = MQTTFigures.metres(position.x)
        y = MQTTFigures.metres(position.y)
        room = roomName
        roomID = position.roomID
        accuracy = MQTTFigures.metres(position.accuracyMetres)
        method = position.method
        time = position.time
        positionID = position.id
        (latitude, longitude, gpsAccuracy) = MQTTFigures.geo(position.latitude, position.longitude, accuracy: position.accuracyMetres)
    }

    enum CodingKeys: String, CodingKey {
        case scannerID, building, floor, floorName, x, y, room, roomID, accuracy, method, time, positionID, latitude, longitude
        case gpsAccuracy = "gps_accuracy"
    }
}

/// How figures published over MQTT are rounded: positions come from radio and are good to a
/// metre at best, so more than centimetres is noise.
enum MQTTFigures {
    static func metres(_ value: Double) -> Double { rounded(value, places: 2) }

    /// Degrees to 7 places (about a centimetre), and the accuracy as Home Assistant's whole-metre
    /// `gps_accuracy` (rounded up, from 1 to 100 km); all nil without both coordinates.
    static func geo(_ latitude: Double?, _ longitude: Double?, accuracy: Double) -> (Double?, Double?, Int?) {
        guard let latitude, let longitude else { return (nil, nil, nil) }
        let metres = accuracy.isFinite ? Int(min(max(accuracy, 1), 100_000).rounded(.up)) : 100_000
        return (rounded(latitude, places: 7), rounded(longitude, places: 7), metres)
    }

    static func rounded(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}

extension MQTTMessage {
    /// `value` as the v1 API's JSON (sorted keys, RFC 3339 dates).
    ///
    /// - Throws: the encoder's error (not for switchd's own types).
    static func json(_ value: some Encodable, topic: String, qos: MQTTQoS = .atLeastOnce, retain: Bool) throws -> MQTTMessage {
        MQTTMessage(topic: topic, payload: Array(try JSONCoding.encoder().encode(value)), qos: qos, retain: retain)
    }
}
