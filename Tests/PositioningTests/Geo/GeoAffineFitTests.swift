import Foundation
import Positioning
import ScanContract
import Testing

/// The plan → WGS 84 affine fit, the wall test autolink uses, and the hull of room outlines.
@Suite struct GeoAffineFitTests {
    /// A plan 100 m × 60 m, x east and y south (image rows), near Bush House in London.
    static let origin = (latitude: 51.5128, longitude: -0.1174)
    static func earth(_ x: Double, _ y: Double) -> ControlPoint {
        let plane = LocalTangentPlane(referenceLatitude: origin.latitude, referenceLongitude: origin.longitude)
        let place = plane.unproject(east: x, north: -y)
        return ControlPoint(x: x, y: y, latitude: place.latitude, longitude: place.longitude)
    }

    @Test func threePointsFitExactlyAndMapOtherPointsOnTheSamePlane() throws {
        let fit = try GeoAffineFit([Self.earth(0, 0), Self.earth(100, 0), Self.earth(0, 60)])
        #expect(fit.residuals.allSatisfy { $0 < 1e-6 })
        let expected = Self.earth(50, 30)
        let mapped = try #require(fit.coordinates(x: 50, y: 30))
        let error = haversineDistance(latitude1: mapped.latitude, longitude1: mapped.longitude, latitude2: expected.latitude, longitude2: expected.longitude)
        #expect(error < 0.01, "the middle of the plan lands within a centimetre, off by \(error) m")
    }

    /// Control points a metre apart on the plan but ten degrees apart on Earth: a point 100 m
    /// away on the plan would lie past the pole, and has no coordinates (GET /v1/beacons/{id}
    /// answered latitude -94.9 before, which the document bounds to ±90).
    @Test func aPointMappedPastAPoleHasNoCoordinates() throws {
        let fit = try GeoAffineFit([
            ControlPoint(x: 0, y: 0, latitude: 0, longitude: 0), ControlPoint(x: 1, y: 0, latitude: 0, longitude: 10),
            ControlPoint(x: 0, y: 1, latitude: 10, longitude: 0),
        ])
        #expect(fit.coordinates(x: 0, y: 0.5) != nil)
        #expect(fit.coordinates(x: 0, y: 100) == nil)
        #expect(fit.coordinates(x: 0, y: -100) == nil)
    }

    @Test func aPointClickedBadlyShowsInItsResidual() throws {
        var points = [Self.earth(0, 0), Self.earth(100, 0), Self.earth(0, 60), Self.earth(100, 60)]
        // The fourth point's latitude is off by about 4 m (one 0.00004° of latitude is 4.4 m).
        points[3].latitude += 0.00004
        let fit = try GeoAffineFit(points)
        #expect(fit.residuals[3] == fit.residuals.max())
        #expect(fit.residuals[3] > 0.5 && fit.rmsResidual > 0.5 && fit.rmsResidual < 4.5)
    }

    @Test func collinearOrTooFewPointsAreRefused() {
        #expect(throws: GeoAffineFitError.tooFewPoints(2)) { try GeoAffineFit([Self.earth(0, 0), Self.earth(1, 1)]) }
        #expect(throws: GeoAffineFitError.collinearPlanPoints) {
            try GeoAffineFit([Self.earth(0, 0), Self.earth(10, 10), Self.earth(20, 20)])
        }
        #expect(throws: GeoAffineFitError.collinearPlanPoints) {
            try GeoAffineFit([Self.earth(5, 5), Self.earth(5, 5), Self.earth(5, 5)])
        }
        var flatEarth = [Self.earth(0, 0), Self.earth(100, 0), Self.earth(0, 60)]
        flatEarth[2].latitude = flatEarth[0].latitude
        flatEarth[2].longitude = flatEarth[0].longitude
        #expect(throws: GeoAffineFitError.collinearEarthPoints) { try GeoAffineFit(flatEarth) }
    }

    @Test func haversineMatchesAKnownDistance() {
        // One degree of latitude on the mean-radius sphere: 111.195 km.
        let metres = haversineDistance(latitude1: 0, longitude1: 0, latitude2: 1, longitude2: 0)
        #expect(abs(metres - 111_195.08) < 1)
    }

    @Test func wallsBlockOnlyWalksThatCrossOrTouchThem() {
        let wall = WallSegment(x1: 5, y1: 0, x2: 5, y2: 10)
        #expect(wall.blocks(fromX: 0, fromY: 5, toX: 10, toY: 5), "straight through")
        #expect(!wall.blocks(fromX: 0, fromY: 5, toX: 4, toY: 5), "stops short")
        #expect(!wall.blocks(fromX: 0, fromY: 11, toX: 10, toY: 11), "passes beyond its end")
        #expect(wall.blocks(fromX: 0, fromY: 10, toX: 10, toY: 10), "grazes its end")
        #expect(wall.blocks(fromX: 5, fromY: 2, toX: 5, toY: 4), "runs along it")
        #expect(!wall.blocks(fromX: 6, fromY: 0, toX: 6, toY: 10), "parallel beside it")
        #expect([wall, WallSegment(x1: 0, y1: 20, x2: 10, y2: 20)].block(fromX: 2, fromY: 15, toX: 2, toY: 25))
    }

    @Test func theHullGoesAnticlockwiseRoundTheOutside() {
        let hull = convexHull([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2), (1, 0)])
        #expect(hull.map { [$0.x, $0.y] } == [[0, 0], [2, 0], [2, 2], [0, 2]])
        #expect(convexHull([(0, 0), (1, 1), (2, 2)]).count < 3, "points on a line span no area")
    }
}
