#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One beacon a scanner heard while positioning: how loud, how far by the path-loss model, and
/// the coarse proximity class integrators act on (immediate / near / far).
public struct BeaconSighting: Codable, Hashable, Sendable {
    public var uuid: UUID
    public var major: UInt16
    public var minor: UInt16
    /// Mean RSSI over the window, dBm.
    public var rssi: Double
    /// Advertisements heard in the window.
    public var samples: Int
    /// Distance the path-loss model gives for `rssi`, metres; nil when the proximity is unknown.
    public var distanceMetres: Double?
    public var proximity: BeaconProximity

    public init(beacon: BeaconID, rssi: Double, samples: Int, distanceMetres: Double?, proximity: BeaconProximity) {
        uuid = beacon.uuid
        major = beacon.major
        minor = beacon.minor
        self.rssi = rssi
        self.samples = samples
        self.distanceMetres = distanceMetres
        self.proximity = proximity
    }

    /// Most sightings one position may carry.
    public static let maxPerPosition = 64

    public func validate(at index: Int) throws(ValidationError) {
        guard rssi.isFinite, (-150...20).contains(rssi) else {
            throw ValidationError(field: "beacons[\(index)].rssi", reason: "must be a finite RSSI in dBm from -150 to 20, got \(rssi)")
        }
        guard samples >= 1 else {
            throw ValidationError(field: "beacons[\(index)].samples", reason: "must be at least 1, got \(samples)")
        }
        if let distanceMetres, !(distanceMetres.isFinite && distanceMetres >= 0 && distanceMetres <= NewLocation.coordinateLimit) {
            throw ValidationError(field: "beacons[\(index)].distanceMetres", reason: "must be a finite number of metres from 0 to \(Int(NewLocation.coordinateLimit)), got \(distanceMetres)")
        }
    }
}
