#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension NewPosition {
    /// The longest method name accepted ("wifi-knn", "ble-trilateration", "fused", …).
    public static let maxMethodLength = 64
    /// The largest accuracy radius accepted, metres.
    public static let maxAccuracyMetres = 100_000.0

    /// Checks the numbers and the method; the scanner, floor, room and location are checked by
    /// the store.
    public func validate() throws(ValidationError) {
        try validatePlanCoordinates(x: x, y: y)
        guard accuracyMetres.isFinite, accuracyMetres >= 0, accuracyMetres <= Self.maxAccuracyMetres else {
            throw ValidationError(field: "accuracyMetres", reason: "must be a finite number of metres from 0 to \(Int(Self.maxAccuracyMetres)), got \(accuracyMetres)")
        }
        guard !method.allSatisfy(\.isWhitespace), method.count <= Self.maxMethodLength else {
            throw ValidationError(field: "method", reason: "must be 1 to \(Self.maxMethodLength) characters naming the positioning method, got \(method.count)")
        }
        if let beacons {
            guard beacons.count <= BeaconSighting.maxPerPosition else {
                throw ValidationError(field: "beacons", reason: "must hold at most \(BeaconSighting.maxPerPosition) beacons, got \(beacons.count)")
            }
            for (index, sighting) in beacons.enumerated() { try sighting.validate(at: index) }
        }
    }
}
