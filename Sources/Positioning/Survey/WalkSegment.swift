/// A walk survey's straight segment: the surveyor leaves `start` at `startTime`, walks at a steady
/// pace and reaches `end` at `endTime`; a scan cycle taken at time t is placed where the surveyor
/// then was (docs/survey-quality.md, "Walk survey"). Times are seconds on one clock.
public struct WalkSegment: Sendable {
    public var start: (x: Double, y: Double)
    public var end: (x: Double, y: Double)
    public var startTime: Double
    public var endTime: Double

    public init(start: (x: Double, y: Double), end: (x: Double, y: Double), startTime: Double, endTime: Double) {
        self.start = start
        self.end = end
        self.startTime = startTime
        self.endTime = endTime
    }

    /// Where the surveyor was at `time`: the start plus the elapsed share of the walk times the
    /// segment. Nil outside [startTime, endTime] (a cycle taken standing before or after the walk
    /// belongs to no point of it) and for a walk of no duration.
    public func position(at time: Double) -> (x: Double, y: Double)? {
        guard endTime > startTime, time >= startTime, time <= endTime else { return nil }
        let share = (time - startTime) / (endTime - startTime)
        return (start.x + share * (end.x - start.x), start.y + share * (end.y - start.y))
    }

    /// The segment's length, metres.
    public var length: Double {
        let dx = end.x - start.x, dy = end.y - start.y
        return (dx * dx + dy * dy).squareRoot()
    }
}
