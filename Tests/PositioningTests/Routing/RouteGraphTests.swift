@testable import Positioning
import ScanContract
import Testing

@Suite("Route graph shortest paths")
struct RouteGraphTests {
    /// One floor: 1 —3— 2 —4— 3, and a long way 1 —10— 3; 4 stands alone.
    func corridor() -> RouteGraph {
        var graph = RouteGraph()
        for id: Int64 in 1...4 { graph.addLocation(id, floorID: 1) }
        graph.addLink(1, 2, metres: 3)
        graph.addLink(2, 3, metres: 4)
        graph.addLink(1, 3, metres: 10)
        return graph
    }

    @Test func takesTheShorterOfTwoWays() throws {
        let found = try corridor().shortestPath(from: 1, to: 3)
        #expect(found.path == [1, 2, 3])
        #expect(found.distanceMetres == 7)
        #expect(found.floorChanges == 0)
    }

    @Test func linksWorkBothWays() throws {
        let found = try corridor().shortestPath(from: 3, to: 1)
        #expect(found.path == [3, 2, 1])
        #expect(found.distanceMetres == 7)
    }

    @Test func aLocationToItselfIsAZeroLengthPath() throws {
        let found = try corridor().shortestPath(from: 2, to: 2)
        #expect(found == ShortestPath(path: [2], distanceMetres: 0, floorChanges: 0))
    }

    @Test func unreachableAndUnknownLocationsAreErrors() {
        #expect(throws: RouteError.unreachable(from: 1, to: 4)) { try corridor().shortestPath(from: 1, to: 4) }
        #expect(throws: RouteError.unknownLocation(9)) { try corridor().shortestPath(from: 9, to: 1) }
        #expect(throws: RouteError.unknownLocation(9)) { try corridor().shortestPath(from: 1, to: 9) }
    }

    /// Ground floor 1, 2; first floor 3, 4. Stairs 2—3 (6 m) and a lift 1—4 (20 m).
    @Test func crossesFloorsByTheShorterOfStairsAndLift() throws {
        var graph = RouteGraph()
        graph.addLocation(1, floorID: 10)
        graph.addLocation(2, floorID: 10)
        graph.addLocation(3, floorID: 11)
        graph.addLocation(4, floorID: 11)
        graph.addLink(1, 2, metres: 5)
        graph.addLink(2, 3, metres: 6)
        graph.addLink(3, 4, metres: 5)
        graph.addLink(1, 4, metres: 20)
        let found = try graph.shortestPath(from: 1, to: 4)
        #expect(found.path == [1, 2, 3, 4])
        #expect(found.distanceMetres == 16)
        #expect(found.floorChanges == 1)

        var slowStairs = graph
        slowStairs.addLink(2, 3, metres: 1) // a second, shorter flight: the shorter link wins
        #expect(try slowStairs.shortestPath(from: 1, to: 4).distanceMetres == 11)
    }

    /// Two ways of 2 m from 1 to 4: through 2 or through 3; a 2 m way in one step wins over both
    /// when present, and otherwise the lower ID, whatever order the links came in.
    @Test func tiesGoToFewerStepsThenLowerIDs() throws {
        let links: [(Int64, Int64, Double)] = [(1, 3, 1), (3, 4, 1), (1, 2, 1), (2, 4, 1)]
        for order in [links, links.reversed()] {
            var graph = RouteGraph()
            for id: Int64 in 1...4 { graph.addLocation(id, floorID: 1) }
            for (a, b, metres) in order { graph.addLink(a, b, metres: metres) }
            #expect(try graph.shortestPath(from: 1, to: 4).path == [1, 2, 4])
            #expect(try graph.shortestPath(from: 4, to: 1).path == [4, 2, 1])
            graph.addLink(1, 4, metres: 2)
            #expect(try graph.shortestPath(from: 1, to: 4).path == [1, 4])
        }
    }

    @Test func linksToLocationsNotInTheGraphAreIgnored() throws {
        var graph = corridor()
        graph.addLink(1, 99, metres: 0.5)
        graph.addLink(99, 3, metres: 0.5)
        #expect(try graph.shortestPath(from: 1, to: 3).path == [1, 2, 3])
    }

    @Test func heapGivesBackInOrder() {
        var heap = MinimumHeap<Int>()
        let values = [5, 3, 9, 1, 7, 3, 0, 8]
        for value in values { heap.insert(value) }
        var out: [Int] = []
        while let value = heap.popMinimum() { out.append(value) }
        #expect(out == values.sorted())
    }
}
