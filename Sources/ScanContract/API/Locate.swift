#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `POST /v1/locate` takes: one scan's readings in the measurement JSON (Wi-Fi readings of
/// one scan, and the BLE advertisements of the last seconds), and, to store the position, the
/// scanner it belongs to.
public struct LocateRequest: Codable, Hashable, Sendable {
    public var scannerID: ScannerID?
    public var measurements: [Measurement]

    public init(scannerID: ScannerID? = nil, measurements: [Measurement]) {
        self.scannerID = scannerID
        self.measurements = measurements
    }

    public static let maxReadings = 10_000

    /// At least one reading, at most ``maxReadings``, each within its physical range.
    public func validate() throws(ValidationError) {
        guard !measurements.isEmpty else {
            throw ValidationError(field: "measurements", reason: "must hold at least one reading")
        }
        guard measurements.count <= Self.maxReadings else {
            throw ValidationError(field: "measurements", reason: "must hold at most \(Self.maxReadings) readings, got \(measurements.count)")
        }
        for (index, measurement) in measurements.enumerated() {
            do {
                try measurement.validate()
            } catch {
                throw ValidationError(field: "measurements[\(index)].\(error.field)", reason: error.reason)
            }
        }
    }
}

/// The position `POST /v1/locate` found: what a scanner would post, plus the stored position's
/// `id` when it was stored (`?store=true`).
public struct LocateResult: Codable, Hashable, Sendable {
    public var building: String
    public var floor: Int64
    public var x: Double
    public var y: Double
    public var roomID: Int64?
    public var nearestLocationID: Int64?
    public var accuracyMetres: Double
    public var method: String
    public var beacons: [BeaconSighting]
    public var latitude: Double?
    public var longitude: Double?
    /// The stored ``Position``'s ID; absent unless stored.
    public var positionID: Int64?

    public init(
        building: String, floor: Int64, x: Double, y: Double, roomID: Int64?, nearestLocationID: Int64?, accuracyMetres: Double,
        method: String, beacons: [BeaconSighting], latitude: Double? = nil, longitude: Double? = nil, positionID: Int64? = nil
    ) {
        self.building = building
        self.floor = floor
        self.x = x
        self.y = y
        self.roomID = roomID
        self.nearestLocationID = nearestLocationID
        self.accuracyMetres = accuracyMetres
        self.method = method
        self.beacons = beacons
        self.latitude = latitude
        self.longitude = longitude
        self.positionID = positionID
    }
}
