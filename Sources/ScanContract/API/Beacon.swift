#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An iBeacon of known position (the beacon registry, `/v1/beacons`).
public struct Beacon: Codable, Hashable, Sendable {
    public var id: Int64
    public var uuid: UUID
    public var major: UInt16
    public var minor: UInt16
    public var floorID: Int64
    /// Metres on the floor's plan; `z` is the height above that floor.
    public var x: Double
    public var y: Double
    public var z: Double
    /// RSSI at 1 m, dBm, as configured in the beacon (iBeacon "measured power").
    public var measuredPower: Int
    /// Free-form labels for integrators (e.g. "asset": "stairwell B").
    public var metadata: [String: String]
    /// WGS 84 degrees, present only when the floor is geo-referenced (`PUT /v1/floors/{id}/georeference`).
    public var latitude: Double?
    public var longitude: Double?
    /// The latest Eddystone-TLM telemetry a scanner forwarded; absent when none did.
    public var telemetry: EmitterTelemetry?
    /// Silent or faded, as switchd last found it; absent until it found either once.
    public var health: BeaconHealthFlags?

    public init(
        id: Int64, uuid: UUID, major: UInt16, minor: UInt16, floorID: Int64,
        x: Double, y: Double, z: Double = 0, measuredPower: Int, metadata: [String: String] = [:]
    ) {
        self.id = id
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.floorID = floorID
        self.x = x
        self.y = y
        self.z = z
        self.measuredPower = measuredPower
        self.metadata = metadata
    }

    public var beaconID: BeaconID { BeaconID(uuid: uuid, major: major, minor: minor) }
}

/// A beacon to register (`POST /v1/beacons`) or the new state of a registered one
/// (`PUT /v1/beacons/{id}`). `z` defaults to 0 and `metadata` to none.
public struct NewBeacon: Codable, Hashable, Sendable {
    public var uuid: UUID
    public var major: UInt16
    public var minor: UInt16
    public var floorID: Int64
    public var x: Double
    public var y: Double
    public var z: Double?
    public var measuredPower: Int
    public var metadata: [String: String]?

    public init(
        uuid: UUID, major: UInt16, minor: UInt16, floorID: Int64,
        x: Double, y: Double, z: Double? = nil, measuredPower: Int, metadata: [String: String]? = nil
    ) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.floorID = floorID
        self.x = x
        self.y = y
        self.z = z
        self.measuredPower = measuredPower
        self.metadata = metadata
    }

    /// iBeacon measured power (RSSI at 1 m) a real beacon can be configured with, dBm.
    public static let measuredPowerRange = -120...0
    /// Height above the floor, metres: from a pit to a tall atrium.
    public static let heightLimit = 100.0
    /// Metadata limits: entries, and characters per key and per value.
    public static let maxMetadataEntries = 32
    public static let maxMetadataKeyLength = 64
    public static let maxMetadataValueLength = 256

    /// Checks what JSON decoding cannot: coordinates, measured power and metadata size. The floor
    /// is checked by the store.
    public func validate() throws(ValidationError) {
        try validatePlanCoordinates(x: x, y: y)
        if let z, !(z.isFinite && abs(z) <= Self.heightLimit) {
            throw ValidationError(field: "z", reason: "must be a finite number of metres within ±\(Int(Self.heightLimit)), got \(z)")
        }
        guard Self.measuredPowerRange.contains(measuredPower) else {
            throw ValidationError(
                field: "measuredPower",
                reason: "must be the RSSI at 1 m in dBm, \(Self.measuredPowerRange.lowerBound) to \(Self.measuredPowerRange.upperBound), got \(measuredPower)"
            )
        }
        try validateMetadata(metadata)
    }
}

extension Beacon {
    /// The registered beacon `id` as `new` describes it, with its defaults applied.
    public init(id: Int64, _ new: NewBeacon) {
        self.init(
            id: id, uuid: new.uuid, major: new.major, minor: new.minor, floorID: new.floorID,
            x: new.x, y: new.y, z: new.z ?? 0, measuredPower: new.measuredPower, metadata: new.metadata ?? [:]
        )
    }
}
