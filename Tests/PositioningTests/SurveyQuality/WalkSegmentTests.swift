import Positioning
import Testing

/// A walk survey's cycles placed along the walked segment by time.
@Suite struct WalkSegmentTests {
    let walk = WalkSegment(start: (0, 0), end: (8, 6), startTime: 100, endTime: 110)

    @Test func aCyclePlacedByTheShareOfTheWalkElapsed() throws {
        #expect(walk.length == 10)
        let start = try #require(walk.position(at: 100))
        #expect(start.x == 0 && start.y == 0)
        let quarter = try #require(walk.position(at: 102.5))
        #expect(quarter.x == 2 && quarter.y == 1.5)
        let end = try #require(walk.position(at: 110))
        #expect(end.x == 8 && end.y == 6)
    }

    @Test func cyclesOutsideTheWalkAndWalksOfNoDurationHaveNoPoint() {
        #expect(walk.position(at: 99.9) == nil)
        #expect(walk.position(at: 110.1) == nil)
        let instant = WalkSegment(start: (0, 0), end: (8, 6), startTime: 100, endTime: 100)
        #expect(instant.position(at: 100) == nil)
    }
}
