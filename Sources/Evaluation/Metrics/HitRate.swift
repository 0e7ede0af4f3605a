/// How often a discrete answer (building, floor, room) was right.
public struct HitRate: Hashable, Sendable {
    public private(set) var hits = 0
    public private(set) var trials = 0

    public init() {}

    public mutating func record(_ hit: Bool) {
        trials += 1
        if hit { hits += 1 }
    }

    /// Counts `other`'s hits and trials too.
    public mutating func add(_ other: HitRate) {
        hits += other.hits
        trials += other.trials
    }

    /// Hits over trials, 0…1; 0 before any trial.
    public var rate: Double { trials == 0 ? 0 : Double(hits) / Double(trials) }
}
