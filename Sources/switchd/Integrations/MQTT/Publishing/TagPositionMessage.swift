import Foundation
import Positioning
import ScanContract

/// The retained JSON on `<prefix>/tags/<id>/position`: a tag's latest ``TagPosition`` with the
/// names of its tag, floor and room, what its track believes of each room, and, on a
/// geo-referenced floor, `latitude`, `longitude` and `gps_accuracy` (Home Assistant's map).
/// Metres to the centimetre, as ``PositionMessage``.
struct TagPositionMessage: Codable, Sendable, Equatable {
    var tagID: Int64
    var name: String
    var floor: Int64
    var floorName: String?
    var x: Double
    var y: Double
    /// The smoothed room's name; nil when the floor has no locations.
    var room: String?
    var roomID: Int64?
    /// The track's belief (0–1) that the tag is in ``room``, and in each room it holds a belief
    /// in, by room name (two rooms of one name add up), to three places: what an automation
    /// thresholds. Nil when the tag has no track.
    var roomProbability: Double?
    var roomProbabilities: [String: Double]?
    var accuracy: Double
    var method: String
    /// How many fixed scanners heard the tag in the windows it was located from.
    var scannersHeard: Int
    /// The end of those windows.
    var time: Date
    /// The position's ID in `/v1/tags/{id}/positions`.
    var positionID: Int64
    var latitude: Double?
    var longitude: Double?
    var gpsAccuracy: Int?

    /// `roomNames` names every room by ID; `beliefs` is the tag's track's room smoother.
    init(_ position: TagPosition, tagName: String, floorName: String?, roomNames: [Int64: String], beliefs: RoomSmoother.State?) {
        tagID = position.tagID
        name = tagName
        floor = position.floorID
        self.floorName = floorName
        x = MQTTFigures.metres(position.x)
        y = MQTTFigures.metres(position.y)
        roomID = position.roomID
        room = position.roomID.flatMap { roomNames[$0] }
        if let beliefs {
            var byName: [String: Double] = [:]
            for belief in beliefs.belief {
                byName[roomNames[belief.room] ?? "room \(belief.room)", default: 0] += belief.probability
            }
            roomProbabilities = byName.mapValues { MQTTFigures.rounded($0, places: 3) }
            roomProbability = MQTTFigures.rounded(beliefs.belief.first { $0.room == position.roomID }?.probability ?? 0, places: 3)
        }
        accuracy = MQTTFigures.metres(position.accuracyMetres)
        method = position.method
        scannersHeard = position.scannersHeard
        time = position.time
        positionID = position.id
        (latitude, longitude, gpsAccuracy) = MQTTFigures.geo(position.latitude, position.longitude, accuracy: position.accuracyMetres)
    }

    enum CodingKeys: String, CodingKey {
        case tagID, name, floor, floorName, x, y, room, roomID, roomProbability, roomProbabilities, accuracy, method, scannersHeard, time
        case positionID, latitude, longitude
        case gpsAccuracy = "gps_accuracy"
    }
}

/// The retained JSON on `<prefix>/scanners/<id>/receiver` of a placed scanner: where it stands,
/// the receive offset in use (and the estimate and override it comes from) and how much it
/// reported in the last minute.
struct ReceiverMessage: Codable, Sendable, Equatable {
    var scannerID: ScannerID
    var floor: Int64
    var floorName: String?
    var x: Double
    var y: Double
    var height: Double
    /// dB added to what it reports: the override, else the estimate, else 0.
    var receiveOffset: Double
    var estimatedReceiveOffset: Double?
    var receiveOffsetOverride: Double?
    /// How many sightings of references at known positions the estimate rests on.
    var calibrationSamples: Int
    /// Windows closed and sightings reported a minute, over the last minute switchd watched
    /// (at least ``ReceiverRates/shortestSpan``); nil before that.
    var windowsPerMinute: Double?
    var sightingsPerMinute: Double?

    init(_ placement: ScannerPlacement, floorName: String?, rates: (windows: Double, sightings: Double)?) {
        scannerID = placement.scannerID
        floor = placement.floorID
        self.floorName = floorName
        x = MQTTFigures.metres(placement.x)
        y = MQTTFigures.metres(placement.y)
        height = MQTTFigures.metres(placement.height)
        receiveOffset = MQTTFigures.rounded(placement.receiveOffset, places: 2)
        estimatedReceiveOffset = placement.estimatedReceiveOffset.map { MQTTFigures.rounded($0, places: 2) }
        receiveOffsetOverride = placement.receiveOffsetOverride
        calibrationSamples = placement.calibrationSamples
        windowsPerMinute = rates.map { MQTTFigures.rounded($0.windows, places: 1) }
        sightingsPerMinute = rates.map { MQTTFigures.rounded($0.sightings, places: 1) }
    }
}
