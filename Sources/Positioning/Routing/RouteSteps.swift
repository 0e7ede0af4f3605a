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
import ScanContract

/// Turn-by-turn steps from a route's geometry: stretches on one floor that go straight on are
/// one walk; a bend between them is a turn, told left or right by its angle; a link between
/// floors is a stairs or lift step up or down; the last step is the arrival.
public enum RouteSteps {
    /// Bends smaller than this (degrees) go straight on: the stretches are one walk.
    public static let straightDegrees = 20.0
    /// Bends up to this are slight turns ("bear left"); larger ones are turns.
    public static let slightDegrees = 60.0
    /// Bends above this are turning around.
    public static let aroundDegrees = 150.0
    /// A stretch shorter than this (metres) has no direction: it neither turns nor sets the heading.
    public static let pointMetres = 0.05

    /// The steps along `waypoints`, joined in order by `legs` (one fewer than waypoints; any
    /// beyond that are ignored, and waypoints without a leg are not walked to). A single
    /// waypoint gives the arrival alone; no waypoint gives no step.
    public static func derive(waypoints: [RouteWaypoint], legs: [RouteLeg]) -> [RouteStep] {
        guard let start = waypoints.first else { return [] }
        var draft: [Draft] = []
        var heading: (x: Double, y: Double)?
        var end = start
        for (index, leg) in legs.prefix(waypoints.count - 1).enumerated() {
            let from = waypoints[index]
            let to = waypoints[index + 1]
            end = to
            if from.floorID != to.floorID {
                draft.append(Draft(kind: leg.kind == .lift ? .lift : .stairs, metres: leg.metres, floorChange: to.level - from.level, to: to))
                heading = nil
                continue
            }
            let dx = to.x - from.x
            let dy = to.y - from.y
            let length = (dx * dx + dy * dy).squareRoot()
            var turn: RouteStep.Turn?
            if length >= pointMetres {
                if let heading { turn = Self.turn(from: heading, to: (dx, dy)) }
                heading = (dx, dy)
            }
            if turn == nil, let previous = draft.last, previous.kind == .walk {
                draft[draft.count - 1].metres += leg.metres
                draft[draft.count - 1].to = to
            } else {
                draft.append(Draft(kind: .walk, metres: leg.metres, turn: turn, to: to))
            }
        }
        draft.append(Draft(kind: .arrive, metres: 0, to: end))
        return draft.indices.map { index in
            draft[index].step(next: index + 1 < draft.count ? draft[index + 1] : nil)
        }
    }

    /// The turn from heading `a` onto heading `b`; nil when it goes straight on. With y down the
    /// plan, a positive cross product bends clockwise on the plan: to the right.
    static func turn(from a: (x: Double, y: Double), to b: (x: Double, y: Double)) -> RouteStep.Turn? {
        let cross = a.x * b.y - a.y * b.x
        let dot = a.x * b.x + a.y * b.y
        let degrees = atan2(cross, dot) * 180 / .pi
        let size = abs(degrees)
        if size < straightDegrees { return nil }
        if size > aroundDegrees { return .around }
        if size <= slightDegrees { return degrees > 0 ? .slightRight : .slightLeft }
        return degrees > 0 ? .right : .left
    }

    /// A step before its words, which depend on the step after it.
    private struct Draft {
        var kind: RouteStep.Kind
        var metres: Double
        var turn: RouteStep.Turn?
        var floorChange: Int?
        var to: RouteWaypoint

        func step(next: Draft?) -> RouteStep {
            RouteStep(
                kind: kind, distanceMetres: metres, turn: turn, floorChange: floorChange,
                toLocationID: to.locationID, floorID: to.floorID, instruction: instruction(next: next)
            )
        }

        private func instruction(next: Draft?) -> String {
            switch kind {
            case .walk:
                let go = "\(Self.opening(turn)) \(Self.metresText(metres))"
                switch next?.kind {
                case .stairs: return go + " to the stairs"
                case .lift: return go + " to the lift"
                case .arrive: return go + " to \(to.name)"
                case .walk, nil: return go
                }
            case .stairs, .lift:
                let means = kind == .lift ? "the lift" : "the stairs"
                return "Take \(means) \(Self.floorsText(floorChange ?? 0))"
            case .arrive:
                return "Arrive at \(to.name)"
            }
        }

        private static func opening(_ turn: RouteStep.Turn?) -> String {
            switch turn {
            case nil: "Go"
            case .slightLeft: "Bear left and go"
            case .slightRight: "Bear right and go"
            case .left: "Turn left and go"
            case .right: "Turn right and go"
            case .around: "Turn around and go"
            }
        }

        /// Whole metres, at least 1: "12 m".
        private static func metresText(_ metres: Double) -> String {
            "\(max(1, Int(metres.rounded()))) m"
        }

        private static func floorsText(_ change: Int) -> String {
            let count = abs(change)
            let floors = count == 1 ? "one floor" : "\(count) floors"
            if change > 0 { return "up \(floors)" }
            if change < 0 { return "down \(floors)" }
            return "to the other floor"
        }
    }
}
