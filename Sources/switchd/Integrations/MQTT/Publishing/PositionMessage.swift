import Foundation
import ScanContract

/// The retained JSON on `<prefix>/scanners/<id>/position`: a stored ``Position`` with the names
/// of its floor and room, so a subscriber needs no second lookup.
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

    init(_ position: Position, floorName: String?, roomName: String?) {
        scannerID = position.scannerID
        building = position.building
        floor = position.floor
        self.floorName = floorName
        x = position.x
        y = position.y
        room = roomName
        roomID = position.roomID
        accuracy = position.accuracyMetres
        method = position.method
        time = position.time
        positionID = position.id
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
