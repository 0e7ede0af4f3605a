#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Stops the reported room from flip-flopping at a boundary: a hidden-Markov forward filter over
/// rooms (stay with probability `stayProbability`, otherwise move to a neighbouring room), fed
/// the room each positioning step names, reporting a new room only when its belief beats the
/// reported room's by `switchMargin`. With the defaults, alternating rooms (even with a repeat
/// now and then) are held, and a real move is followed after 6 consistent steps.
public struct RoomSmoother: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Probability of staying in the room between two steps.
        public var stayProbability: Double
        /// Probability that a step names the true room.
        public var observationAccuracy: Double
        /// Belief lead another room needs over the reported room before the report changes.
        public var switchMargin: Double
        /// Probability of turning up in a room that is not a neighbour (a missing door in the
        /// graph, or a gap in positioning): small, but never zero, so no room is unreachable.
        public var jumpProbability: Double

        public init(stayProbability: Double = 0.9, observationAccuracy: Double = 0.6, switchMargin: Double = 0.3, jumpProbability: Double = 0.01) {
            self.stayProbability = stayProbability
            self.observationAccuracy = observationAccuracy
            self.switchMargin = switchMargin
            self.jumpProbability = jumpProbability
        }
    }

    public var settings: Settings
    /// Room → rooms reachable in one step (doors in the location graph); rooms missing from it
    /// count as reachable from every room.
    public var neighbours: [Int64: Set<Int64>]
    private var belief: [Int64: Double] = [:]
    /// The room last reported.
    public private(set) var room: Int64?

    public init(settings: Settings = Settings(), neighbours: [Int64: Set<Int64>] = [:]) {
        self.settings = settings
        self.neighbours = neighbours
    }

    /// Forgets everything (e.g. on a floor change).
    public mutating func reset() {
        belief = [:]
        room = nil
    }

    /// Takes the room one step named and returns the room to report.
    public mutating func update(observed: Int64) -> Int64 {
        guard let reported = room else {
            belief = [observed: 1]
            room = observed
            return observed
        }
        if belief[observed] == nil { belief[observed] = 0 }
        predict()
        let others = Double(max(belief.count - 1, 1))
        for key in belief.keys {
            belief[key, default: 0] *= key == observed ? settings.observationAccuracy : (1 - settings.observationAccuracy) / others
        }
        let total = belief.values.reduce(0, +)
        if total > 0 {
            for key in belief.keys { belief[key, default: 0] /= total }
        } else {
            belief = [observed: 1]
        }
        if let (best, value) = belief.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
           best != reported, value > (belief[reported] ?? 0) + settings.switchMargin {
            room = best
        }
        return room ?? observed
    }

    private func reachable(_ from: Int64, _ to: Int64) -> Bool {
        guard let next = neighbours[from] else { return true }
        return next.contains(to)
    }

    /// One Markov step: a room keeps `stayProbability` of its belief and sends `jumpProbability`
    /// evenly to every other room; the rest goes evenly to its known neighbours (every other room
    /// when the graph does not list it), or stays when none of its neighbours is known yet.
    private mutating func predict() {
        var next = belief.mapValues { _ in 0.0 }
        for (from, mass) in belief {
            let others = belief.keys.filter { $0 != from }
            guard !others.isEmpty else {
                next[from, default: 0] += mass
                continue
            }
            let leaving = 1 - settings.stayProbability
            let jump = neighbours[from] == nil ? 0 : min(settings.jumpProbability, leaving)
            for other in others { next[other, default: 0] += mass * jump / Double(others.count) }
            let targets = others.filter { reachable(from, $0) }
            if targets.isEmpty {
                next[from, default: 0] += mass * (1 - jump)
            } else {
                next[from, default: 0] += mass * settings.stayProbability
                for target in targets { next[target, default: 0] += mass * (leaving - jump) / Double(targets.count) }
            }
        }
        belief = next
    }
}

extension RoomSmoother {
    /// What the smoother believes, without its settings and room graph: enough to go on where it
    /// stopped in another process (switchd stores each tag's, see ``TagTrack``).
    public struct State: Codable, Hashable, Sendable {
        /// Each room's belief, by room ID ascending (a list, so the stored form reads the same
        /// every time).
        public var belief: [Belief]
        /// The room last reported.
        public var room: Int64?

        public init(belief: [Belief], room: Int64?) {
            self.belief = belief
            self.room = room
        }

        public struct Belief: Codable, Hashable, Sendable {
            public var room: Int64
            public var probability: Double

            public init(room: Int64, probability: Double) {
                self.room = room
                self.probability = probability
            }
        }
    }

    /// A smoother with `settings` and `neighbours` going on from `state`.
    public init(settings: Settings = Settings(), neighbours: [Int64: Set<Int64>] = [:], state: State) {
        self.init(settings: settings, neighbours: neighbours)
        self.state = state
    }

    /// Setting it keeps the last of two beliefs given for one room.
    public var state: State {
        get {
            State(belief: belief.sorted { $0.key < $1.key }.map { State.Belief(room: $0.key, probability: $0.value) }, room: room)
        }
        set {
            belief = Dictionary(newValue.belief.map { ($0.room, $0.probability) }, uniquingKeysWith: { $1 })
            room = newValue.room
        }
    }
}

extension RoomSmoother.State {
    /// The state without the rooms not in `rooms` (deleted since, or on another floor): their
    /// belief goes and the rest is scaled back to a whole; when the reported room is one of them,
    /// the smoother starts afresh at its next step, as after ``RoomSmoother/reset()``.
    public func keeping(_ rooms: Set<Int64>) -> Self {
        if let reported = room, !rooms.contains(reported) { return Self(belief: [], room: nil) }
        guard belief.contains(where: { !rooms.contains($0.room) }) else { return self }
        let kept = belief.filter { rooms.contains($0.room) }
        let total = kept.reduce(0) { $0 + $1.probability }
        guard total > 0 else { return Self(belief: [], room: nil) }
        return Self(belief: kept.map { Belief(room: $0.room, probability: $0.probability / total) }, room: room)
    }
}
