#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// Why control points give no geo-reference.
public enum GeoAffineFitError: Error, Hashable, Sendable {
    /// Fewer than three points: an affine map has six unknowns, two per point.
    case tooFewPoints(Int)
    /// The plan points lie on one line (or one spot): nothing fixes the direction across it.
    case collinearPlanPoints
    /// The Earth points lie on one line (or one spot): the plan would be squashed flat.
    case collinearEarthPoints

    public var reason: String {
        switch self {
        case .tooFewPoints(let count): "needs at least 3 control points, got \(count)"
        case .collinearPlanPoints: "the control points' plan positions lie on one line (or coincide); give three or more that span an area"
        case .collinearEarthPoints: "the control points' latitudes and longitudes lie on one line (or coincide); give three or more that span an area"
        }
    }
}

/// The affine map from a floor's plan (metres) to the local east/north plane around the control
/// points, fitted by least squares, and through that plane to latitude and longitude.
///
/// `east = a·x + b·y + c`, `north = d·x + e·y + f` (metres from the ``plane``'s reference point,
/// the mean of the control points). With exactly three points the fit is exact; with more, each
/// point's residual says how far (metres) the fitted map puts it from where it was said to be.
public struct GeoAffineFit: Hashable, Sendable {
    public let plane: LocalTangentPlane
    public let a, b, c, d, e, f: Double
    /// Per control point, in the order given: metres between its fitted and its given position.
    public let residuals: [Double]

    /// A plan whose points span less than this fraction of their spread in both directions
    /// (the smaller eigenvalue of their scatter against the larger) counts as one line.
    public static let collinearityTolerance = 1e-6

    /// - Throws: ``GeoAffineFitError`` for fewer than three points, or points on one line
    ///   (on the plan or on Earth).
    public init(_ points: [ControlPoint]) throws(GeoAffineFitError) {
        guard points.count >= 3 else { throw .tooFewPoints(points.count) }
        let count = Double(points.count)
        let plane = LocalTangentPlane(
            referenceLatitude: points.map(\.latitude).reduce(0, +) / count,
            referenceLongitude: points.map(\.longitude).reduce(0, +) / count
        )
        let earth = points.map { plane.project(latitude: $0.latitude, longitude: $0.longitude) }
        let planPoints = points.map { (x: $0.x, y: $0.y) }
        guard Self.spansArea(planPoints) else { throw .collinearPlanPoints }
        guard Self.spansArea(earth.map { (x: $0.east, y: $0.north) }) else { throw .collinearEarthPoints }

        // Least squares on centred coordinates: the 2×2 normal equations per output axis.
        let meanX = planPoints.map(\.x).reduce(0, +) / count, meanY = planPoints.map(\.y).reduce(0, +) / count
        let meanEast = earth.map(\.east).reduce(0, +) / count, meanNorth = earth.map(\.north).reduce(0, +) / count
        var sxx = 0.0, sxy = 0.0, syy = 0.0, sxe = 0.0, sye = 0.0, sxn = 0.0, syn = 0.0
        for (point, target) in zip(planPoints, earth) {
            let dx = point.x - meanX, dy = point.y - meanY
            let de = target.east - meanEast, dn = target.north - meanNorth
            sxx += dx * dx; sxy += dx * dy; syy += dy * dy
            sxe += dx * de; sye += dy * de; sxn += dx * dn; syn += dy * dn
        }
        let determinant = sxx * syy - sxy * sxy
        let a = (sxe * syy - sye * sxy) / determinant
        let b = (sye * sxx - sxe * sxy) / determinant
        let d = (sxn * syy - syn * sxy) / determinant
        let e = (syn * sxx - sxn * sxy) / determinant
        let c = meanEast - a * meanX - b * meanY
        let f = meanNorth - d * meanX - e * meanY
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
        self.plane = plane
        residuals = zip(planPoints, earth).map { point, target in
            let east = a * point.x + b * point.y + c, north = d * point.x + e * point.y + f
            return ((east - target.east) * (east - target.east) + (north - target.north) * (north - target.north)).squareRoot()
        }
    }

    /// Root mean square of the residuals, metres.
    public var rmsResidual: Double {
        (residuals.map { $0 * $0 }.reduce(0, +) / Double(residuals.count)).squareRoot()
    }

    /// Where the plan point (`x`, `y` metres) lies on Earth, in degrees; nil when the fit maps
    /// it past a pole (latitude beyond ±90°, as a point far outside control points that are close
    /// on the plan but far apart on Earth can be), which no WGS 84 coordinate describes.
    public func coordinates(x: Double, y: Double) -> (latitude: Double, longitude: Double)? {
        let place = plane.unproject(east: a * x + b * y + c, north: d * x + e * y + f)
        guard place.latitude.isFinite, place.longitude.isFinite, abs(place.latitude) <= 90 else { return nil }
        return place
    }

    /// Whether the points spread in two directions: the smaller eigenvalue of their scatter
    /// matrix is more than ``collinearityTolerance`` of the larger.
    static func spansArea(_ points: [(x: Double, y: Double)]) -> Bool {
        let count = Double(points.count)
        let meanX = points.map(\.x).reduce(0, +) / count, meanY = points.map(\.y).reduce(0, +) / count
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for point in points {
            let dx = point.x - meanX, dy = point.y - meanY
            sxx += dx * dx; sxy += dx * dy; syy += dy * dy
        }
        let trace = sxx + syy
        let root = (((sxx - syy) * (sxx - syy)) / 4 + sxy * sxy).squareRoot()
        let larger = trace / 2 + root, smaller = trace / 2 - root
        return larger > 0 && smaller > larger * collinearityTolerance
    }
}
