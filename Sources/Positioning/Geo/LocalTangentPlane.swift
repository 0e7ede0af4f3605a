#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// East and north metres around a reference point on the WGS 84 ellipsoid, taken as a sphere of
/// the mean Earth radius (equirectangular): within a building or a campus (a few kilometres)
/// the error is far below what a control point clicked on a plan is good to.
public struct LocalTangentPlane: Hashable, Sendable {
    /// IUGG mean Earth radius, metres.
    public static let earthRadius = 6_371_008.8

    public let referenceLatitude: Double
    public let referenceLongitude: Double
    private let metresPerRadianEast: Double

    public init(referenceLatitude: Double, referenceLongitude: Double) {
        self.referenceLatitude = referenceLatitude
        self.referenceLongitude = referenceLongitude
        metresPerRadianEast = Self.earthRadius * cos(referenceLatitude * .pi / 180)
    }

    /// Metres east and north of the reference point.
    public func project(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
        var deltaLongitude = longitude - referenceLongitude
        // The short way round across the antimeridian.
        if deltaLongitude > 180 { deltaLongitude -= 360 } else if deltaLongitude < -180 { deltaLongitude += 360 }
        return (deltaLongitude * .pi / 180 * metresPerRadianEast, (latitude - referenceLatitude) * .pi / 180 * Self.earthRadius)
    }

    /// The latitude and longitude (degrees) of a point `east` and `north` metres from the reference.
    public func unproject(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        var longitude = referenceLongitude + east / metresPerRadianEast * 180 / .pi
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return (referenceLatitude + north / Self.earthRadius * 180 / .pi, longitude)
    }
}

/// Great-circle distance in metres between two points given in degrees (haversine formula, on
/// the sphere of ``LocalTangentPlane/earthRadius``).
public func haversineDistance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
    let phi1 = latitude1 * .pi / 180, phi2 = latitude2 * .pi / 180
    let deltaPhi = phi2 - phi1
    let deltaLambda = (longitude2 - longitude1) * .pi / 180
    let h = sin(deltaPhi / 2) * sin(deltaPhi / 2) + cos(phi1) * cos(phi2) * sin(deltaLambda / 2) * sin(deltaLambda / 2)
    return 2 * LocalTangentPlane.earthRadius * asin(min(1, h.squareRoot()))
}
