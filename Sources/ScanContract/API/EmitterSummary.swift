#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where an emitter was heard best: the surveyed location with the highest mean RSSI.
public struct EmitterPlace: Codable, Hashable, Sendable {
    public var locationID: Int64
    public var roomID: Int64
    public var floorID: Int64
    public var meanRSSI: Double
    public var readings: Int

    public init(locationID: Int64, roomID: Int64, floorID: Int64, meanRSSI: Double, readings: Int) {
        self.locationID = locationID
        self.roomID = roomID
        self.floorID = floorID
        self.meanRSSI = meanRSSI
        self.readings = readings
    }
}

/// One access point or beacon heard in the stored readings (`GET /v1/emitters`).
///
/// `emitter` is its key as the radio map writes it (`ap:<bssid>` or
/// `beacon:<uuid>/<major>/<minor>`), and what `GET /v1/measurements?emitter=` takes.
public struct EmitterSummary: Codable, Hashable, Sendable {
    public var emitter: String
    public var kind: RadioKind
    /// Wi-Fi: the access point's BSSID and the last SSID it announced.
    public var bssid: String?
    public var ssid: String?
    /// BLE: the beacon's identity, and its registry ID when it is registered.
    public var uuid: UUID?
    public var major: UInt16?
    public var minor: UInt16?
    public var beaconID: Int64?
    public var readings: Int
    public var meanRSSI: Double
    public var maxRSSI: Int
    public var firstSeen: Date
    public var lastSeen: Date
    /// How many surveyed locations heard it, and the one that heard it loudest (nil when only
    /// locate readings heard it).
    public var locations: Int
    public var strongestAt: EmitterPlace?

    public init(
        emitter: String, kind: RadioKind, bssid: String? = nil, ssid: String? = nil, uuid: UUID? = nil, major: UInt16? = nil,
        minor: UInt16? = nil, beaconID: Int64? = nil, readings: Int, meanRSSI: Double, maxRSSI: Int, firstSeen: Date,
        lastSeen: Date, locations: Int, strongestAt: EmitterPlace?
    ) {
        self.emitter = emitter
        self.kind = kind
        self.bssid = bssid
        self.ssid = ssid
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.beaconID = beaconID
        self.readings = readings
        self.meanRSSI = meanRSSI
        self.maxRSSI = maxRSSI
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.locations = locations
        self.strongestAt = strongestAt
    }
}

/// A place in the emitter listing, which is ordered by emitter key: the key of the last emitter
/// already seen (`ap:<bssid>` or `beacon:<uuid>/<major>/<minor>`). Clients pass `nextCursor` back
/// unchanged; any text of 1 to 128 characters is a place in that order (the listing goes on after
/// it), so a page never fails because its emitter's readings were deleted meanwhile.
public struct EmitterCursor: Hashable, Sendable {
    public let afterKey: String

    public init(afterKey: String) {
        self.afterKey = afterKey
    }

    public var token: String {
        afterKey
    }

    /// Reads a key: 1 to 128 characters (Unicode scalars, as JSON Schema's `maxLength` counts).
    ///
    /// - Throws: for an empty text or a longer one.
    public init(token: String) throws(FieldError) {
        guard (1...128).contains(token.unicodeScalars.count) else {
            throw FieldError("is not a cursor (1 to 128 characters, the nextCursor of a page)")
        }
        afterKey = token
    }
}
