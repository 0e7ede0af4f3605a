#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// Everything a scanner needs to position itself offline: the floors, the beacons of known
/// position, and the fingerprint of every surveyed location. switchd builds it from the survey
/// (`GET /v1/radiomap`); scannerd keeps the latest copy on disk.
public struct RadioMap: Codable, Hashable, Sendable {
    public var floors: [RadioMapFloor]
    public var beacons: [Beacon]
    public var locations: [RadioMapLocation]
    /// The rooms drawn as shapes (`PUT /v1/rooms/{id}/outline`); nil when none is, and in maps of
    /// a switchd before outlines, so a map without them reads and encodes as it always did.
    public var rooms: [RadioMapRoom]?

    public init(floors: [RadioMapFloor] = [], beacons: [Beacon] = [], locations: [RadioMapLocation] = [], rooms: [RadioMapRoom]? = nil) {
        self.floors = floors
        self.beacons = beacons
        self.locations = locations
        self.rooms = rooms
    }
}

/// A room's outline as positioning sees it: corners in plan metres on its floor, in order.
public struct RadioMapRoom: Codable, Hashable, Sendable {
    public var roomID: Int64
    public var floorID: Int64
    public var outline: [[Double]]

    public init(roomID: Int64, floorID: Int64, outline: [[Double]]) {
        self.roomID = roomID
        self.floorID = floorID
        self.outline = outline
    }
}

/// A floor as positioning sees it: where it is in the building and how its radio waves fade.
public struct RadioMapFloor: Codable, Hashable, Sendable {
    public var floorID: Int64
    public var building: String
    public var level: Int
    /// The log-distance path-loss exponent fitted on this floor's survey, when there was enough
    /// of it (beacons of known position heard at surveyed locations); nil means "use the default".
    public var pathLossExponent: Double?

    public init(floorID: Int64, building: String, level: Int, pathLossExponent: Double? = nil) {
        self.floorID = floorID
        self.building = building
        self.level = level
        self.pathLossExponent = pathLossExponent
    }
}

/// One surveyed location's fingerprint.
public struct RadioMapLocation: Codable, Hashable, Sendable {
    public var locationID: Int64
    public var floorID: Int64
    public var roomID: Int64
    public var x: Double
    public var y: Double
    /// Per emitter heard here: mean, spread and count of its RSSI, strongest first.
    public var emitters: [EmitterFingerprint]
    /// The raw samples: one entry per survey scan cycle, emitter → RSSI (dBm) as heard in that
    /// cycle (the mean when a cycle heard an emitter more than once).
    public var scans: [[Emitter: Double]]
    /// How far off positioning here is expected to be, judged by the survey itself
    /// (``RadioMap/withExpectedErrors(quantile:estimate:settings:representation:)``); nil when not estimated, and absent
    /// from the JSON then (older maps and older switchd have none).
    public var expectedError: ExpectedError?
    /// Set on a point of a walk survey: the walk. Its points are left out together when the
    /// expected error is estimated (a walk's neighbouring points repeat each other); absent from
    /// the JSON otherwise.
    public var walkID: Int64?

    public init(
        locationID: Int64, floorID: Int64, roomID: Int64, x: Double, y: Double,
        emitters: [EmitterFingerprint] = [], scans: [[Emitter: Double]] = [], expectedError: ExpectedError? = nil, walkID: Int64? = nil
    ) {
        self.locationID = locationID
        self.floorID = floorID
        self.roomID = roomID
        self.x = x
        self.y = y
        self.emitters = emitters
        self.scans = scans
        self.expectedError = expectedError
        self.walkID = walkID
    }

    enum CodingKeys: String, CodingKey { case locationID, floorID, roomID, x, y, emitters, scans, expectedError, walkID }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        locationID = try c.decode(Int64.self, forKey: .locationID)
        floorID = try c.decode(Int64.self, forKey: .floorID)
        roomID = try c.decode(Int64.self, forKey: .roomID)
        x = try c.decode(Double.self, forKey: .x)
        y = try c.decode(Double.self, forKey: .y)
        emitters = try c.decode([EmitterFingerprint].self, forKey: .emitters)
        // JSON objects are keyed by the emitter's text form.
        let raw = try c.decode([[String: Double]].self, forKey: .scans)
        scans = try raw.map { scan in
            var readings: [Emitter: Double] = [:]
            for (key, rssi) in scan {
                guard let emitter = try? Emitter(key) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .scans, in: c,
                        debugDescription: "\"\(key)\" is not an emitter: use ap:<bssid> or beacon:<uuid>/<major>/<minor>"
                    )
                }
                readings[emitter] = rssi
            }
            return readings
        }
        expectedError = try c.decodeIfPresent(ExpectedError.self, forKey: .expectedError)
        walkID = try c.decodeIfPresent(Int64.self, forKey: .walkID)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(locationID, forKey: .locationID)
        try c.encode(floorID, forKey: .floorID)
        try c.encode(roomID, forKey: .roomID)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
        try c.encode(emitters, forKey: .emitters)
        try c.encode(scans.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.description, $0.value) }) }, forKey: .scans)
        try c.encodeIfPresent(expectedError, forKey: .expectedError)
        try c.encodeIfPresent(walkID, forKey: .walkID)
    }
}

/// One emitter's RSSI statistics at one location.
public struct EmitterFingerprint: Codable, Hashable, Sendable {
    public var emitter: Emitter
    /// Mean RSSI over the scans that heard it, dBm (each scan counts once, with its own mean).
    public var mean: Double
    /// Population standard deviation of those per-scan values, dB (0 with a single scan).
    public var spread: Double
    /// Number of survey scans that heard it.
    public var count: Int

    public init(emitter: Emitter, mean: Double, spread: Double, count: Int) {
        self.emitter = emitter
        self.mean = mean
        self.spread = spread
        self.count = count
    }
}
