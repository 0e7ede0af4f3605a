import Foundation
@testable import Positioning
import ScanContract
import Testing

@Suite("Turn-by-turn route steps")
struct RouteStepsTests {
    /// A waypoint on floor 1 (level 0) unless told; IDs count from 1.
    func point(_ id: Int64, _ x: Double, _ y: Double, floor: Int64 = 1, level: Int = 0, name: String? = nil) -> RouteWaypoint {
        RouteWaypoint(locationID: id, floorID: floor, level: level, x: x, y: y, name: name ?? "L\(id)")
    }

    func walks(_ metres: Double...) -> [RouteLeg] {
        metres.map { RouteLeg(metres: $0, kind: .walk) }
    }

    @Test func straightStretchesAreOneWalk() {
        let steps = RouteSteps.derive(
            waypoints: [point(1, 0, 0), point(2, 5, 0), point(3, 12, 1, name: "Café")], legs: walks(5, 7.1)
        )
        #expect(steps.map(\.kind) == [.walk, .arrive])
        #expect(abs(steps[0].distanceMetres - 12.1) < 1e-9)
        #expect(steps[0].turn == nil)
        #expect(steps[0].toLocationID == 3)
        #expect(steps[0].instruction == "Go 12 m to Café")
        #expect(steps[1].instruction == "Arrive at Café")
        #expect(steps[1].distanceMetres == 0)
    }

    /// y runs down the plan: heading east (+x) then +y bends clockwise on the plan, a right turn.
    @Test func turnsAreLeftOrRightByTheirAngle() {
        let right = RouteSteps.derive(waypoints: [point(1, 0, 0), point(2, 10, 0), point(3, 10, 4)], legs: walks(10, 4))
        #expect(right.map(\.turn) == [nil, .right, nil])
        #expect(right[1].instruction == "Turn right and go 4 m to L3")
        let left = RouteSteps.derive(waypoints: [point(1, 0, 0), point(2, 10, 0), point(3, 10, -4)], legs: walks(10, 4))
        #expect(left.map(\.turn) == [nil, .left, nil])
        #expect(left[0].instruction == "Go 10 m")
        #expect(left[1].instruction == "Turn left and go 4 m to L3")
    }

    @Test func angleBands() {
        let east = (x: 1.0, y: 0.0)
        func heading(_ degrees: Double) -> (x: Double, y: Double) {
            (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
        }
        #expect(RouteSteps.turn(from: east, to: heading(19)) == nil)
        #expect(RouteSteps.turn(from: east, to: heading(-19)) == nil)
        #expect(RouteSteps.turn(from: east, to: heading(45)) == .slightRight)
        #expect(RouteSteps.turn(from: east, to: heading(-45)) == .slightLeft)
        #expect(RouteSteps.turn(from: east, to: heading(90)) == .right)
        #expect(RouteSteps.turn(from: east, to: heading(-120)) == .left)
        #expect(RouteSteps.turn(from: east, to: heading(170)) == .around)
        #expect(RouteSteps.turn(from: east, to: heading(-170)) == .around)
    }

    @Test func floorChangesAreStairsOrLiftUpOrDown() {
        let waypoints = [
            point(1, 0, 0), point(2, 12, 0),
            point(3, 12, 0, floor: 2, level: 1), point(4, 12, 6, floor: 2, level: 1),
            point(5, 12, 6, floor: 3, level: -1, name: "Cellar"),
        ]
        let legs = [
            RouteLeg(metres: 12, kind: .walk), RouteLeg(metres: 4, kind: .stairs),
            RouteLeg(metres: 6, kind: .walk), RouteLeg(metres: 8, kind: .lift),
        ]
        let steps = RouteSteps.derive(waypoints: waypoints, legs: legs)
        #expect(steps.map(\.kind) == [.walk, .stairs, .walk, .lift, .arrive])
        #expect(steps.map(\.instruction) == [
            "Go 12 m to the stairs", "Take the stairs up one floor", "Go 6 m to the lift", "Take the lift down 2 floors", "Arrive at Cellar",
        ])
        #expect(steps.map(\.floorChange) == [nil, 1, nil, -2, nil])
        #expect(steps.map(\.floorID) == [1, 2, 2, 3, 3])
        // After a floor change the heading starts afresh: no turn is told for the first stretch.
        #expect(steps[2].turn == nil)
    }

    @Test func distancesComeFromTheLinksNotTheStraightLine() {
        let steps = RouteSteps.derive(waypoints: [point(1, 0, 0), point(2, 3, 4)], legs: walks(9.4))
        #expect(steps[0].distanceMetres == 9.4)
        #expect(steps[0].instruction == "Go 9 m to L2")
    }

    @Test func aStretchWithoutLengthKeepsTheHeading() {
        // 2 and 3 stand at one spot: the bend is measured from 1→2 to 3→4, a left turn.
        let steps = RouteSteps.derive(
            waypoints: [point(1, 0, 0), point(2, 5, 0), point(3, 5, 0), point(4, 5, -5)], legs: walks(5, 0.01, 5)
        )
        #expect(steps.map(\.kind) == [.walk, .walk, .arrive])
        #expect(steps[1].turn == .left)
        #expect(steps[0].toLocationID == 3)
    }

    @Test func aRouteToItselfIsAnArrival() {
        let steps = RouteSteps.derive(waypoints: [point(7, 1, 1, name: "Hall")], legs: [])
        #expect(steps == [RouteStep(kind: .arrive, distanceMetres: 0, toLocationID: 7, floorID: 1, instruction: "Arrive at Hall")])
        #expect(RouteSteps.derive(waypoints: [], legs: []).isEmpty)
    }
}
