import Positioning
import Testing

/// Room outlines at their boundaries: edges and corners count as inside, a hair outside does
/// not, concave rooms keep their notch, and of overlapping outlines the smallest wins.
@Suite struct PlanPolygonTests {
    static func polygon(_ points: [(Double, Double)]) -> PlanPolygon {
        PlanPolygon(points.map { PlanPolygon.Point(x: $0.0, y: $0.1) })
    }

    static func point(_ x: Double, _ y: Double) -> PlanPolygon.Point { PlanPolygon.Point(x: x, y: y) }

    static let square = polygon([(0, 0), (4, 0), (4, 4), (0, 4)])
    /// An L: the 4 × 4 square without its top-right 2 × 2 quarter.
    static let ell = polygon([(0, 0), (4, 0), (4, 2), (2, 2), (2, 4), (0, 4)])

    @Test func edgesAndCornersAreInsideAndAHairOutsideIsNot() {
        let square = Self.square
        #expect(square.contains(Self.point(2, 2)))
        #expect(square.contains(Self.point(2, 0)), "on the bottom edge")
        #expect(square.contains(Self.point(4, 1.5)), "on the right edge")
        #expect(square.contains(Self.point(0, 4)), "on a corner")
        #expect(square.contains(Self.point(4, 4)), "on the corner the ray runs along")
        #expect(!square.contains(Self.point(4.000001, 2)))
        #expect(!square.contains(Self.point(2, -0.000001)))
        #expect(!square.contains(Self.point(-1, 4)), "level with the top edge, outside")
        #expect(!square.contains(Self.point(5, 0)), "level with the bottom edge, outside")
    }

    @Test func aConcaveRoomLeavesItsNotchOut() {
        let ell = Self.ell
        #expect(ell.contains(Self.point(1, 3)))
        #expect(ell.contains(Self.point(3, 1)))
        #expect(!ell.contains(Self.point(3, 3)), "the notch")
        #expect(ell.contains(Self.point(3, 2)), "on the notch's edge")
        #expect(ell.contains(Self.point(2, 2)), "the inner corner")
        #expect(!ell.contains(Self.point(2.5, 2.5)))
        #expect(ell.area == 12)
        #expect(ell.problem == nil)
    }

    @Test func areaIsTheSameEitherWayRound() {
        #expect(Self.square.area == 16)
        #expect(PlanPolygon(Self.square.corners.reversed()).area == 16)
        #expect(Self.polygon([(0, 0), (1, 1)]).area == 0)
    }

    @Test func theSmallestOutlineHoldingAPointWins() {
        let hall = RoomOutlines.Outlined(roomID: 1, polygon: Self.polygon([(0, 0), (10, 0), (10, 10), (0, 10)]))
        let office = RoomOutlines.Outlined(roomID: 2, polygon: Self.polygon([(2, 2), (5, 2), (5, 5), (2, 5)]))
        let rooms = RoomOutlines([hall, office])
        #expect(rooms.room(atX: 3, y: 3) == 2, "inside the office, drawn inside the hall")
        #expect(rooms.room(atX: 5, y: 3) == 2, "on the office's wall")
        #expect(rooms.room(atX: 8, y: 8) == 1)
        #expect(rooms.room(atX: 11, y: 8) == nil)
        // Two rooms sharing a wall: of equal areas, the lower ID takes the wall.
        let west = RoomOutlines.Outlined(roomID: 7, polygon: Self.polygon([(0, 0), (2, 0), (2, 2), (0, 2)]))
        let east = RoomOutlines.Outlined(roomID: 3, polygon: Self.polygon([(2, 0), (4, 0), (4, 2), (2, 2)]))
        let pair = RoomOutlines([west, east])
        #expect(pair.room(atX: 2, y: 1) == 3)
        #expect(pair.room(atX: 1, y: 1) == 7)
    }

    @Test func outlinesThatAreNotSimplePolygonsAreNamed() throws {
        #expect(Self.polygon([(0, 0), (1, 0)]).problem?.contains("at least 3") == true)
        let bowtie = Self.polygon([(0, 0), (2, 2), (2, 0), (0, 2)])
        #expect(try #require(bowtie.problem).contains("cross"))
        #expect(try #require(Self.polygon([(0, 0), (1, 0), (1, 1), (0, 0), (0, 1)]).problem).contains("same point"))
        #expect(try #require(Self.polygon([(0, 0), (1, 0), (2, 0)]).problem).contains("fold back") || Self.polygon([(0, 0), (1, 0), (2, 0)]).problem?.contains("one line") == true)
        #expect(try #require(Self.polygon([(0, 0), (4, 0), (2, 0), (2, 3)]).problem).contains("fold back"))
        // A corner touching another edge (not crossing it) is refused too.
        #expect(try #require(Self.polygon([(0, 0), (4, 0), (4, 4), (2, 0), (0, 4)]).problem).contains("cross"))
        // A corner on a straight wall is fine.
        #expect(Self.polygon([(0, 0), (2, 0), (4, 0), (4, 4), (0, 4)]).problem == nil)
    }
}
