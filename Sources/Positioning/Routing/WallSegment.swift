/// A wall on a floor plan: a straight segment between two points, metres on the plan.
public struct WallSegment: Hashable, Sendable {
    public var x1, y1, x2, y2: Double

    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        (self.x1, self.y1, self.x2, self.y2) = (x1, y1, x2, y2)
    }

    /// Whether the straight walk from (`fromX`, `fromY`) to (`toX`, `toY`) goes through this wall:
    /// the two segments share a point (touching counts, so a walk that grazes a wall's end or
    /// runs along it is blocked too). A walk of zero length crosses only a wall it stands on.
    public func blocks(fromX: Double, fromY: Double, toX: Double, toY: Double) -> Bool {
        let p = (x: fromX, y: fromY), q = (x: toX, y: toY)
        let r = (x: x1, y: y1), s = (x: x2, y: y2)
        let d1 = Self.orientation(r, s, p), d2 = Self.orientation(r, s, q)
        let d3 = Self.orientation(p, q, r), d4 = Self.orientation(p, q, s)
        if d1 * d2 < 0, d3 * d4 < 0 { return true }
        return (d1 == 0 && Self.within(p, r, s)) || (d2 == 0 && Self.within(q, r, s))
            || (d3 == 0 && Self.within(r, p, q)) || (d4 == 0 && Self.within(s, p, q))
    }

    /// The sign of the turn a → b → c: positive anticlockwise, negative clockwise, 0 on one line.
    private static func orientation(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double)) -> Double {
        let cross = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        return cross == 0 ? 0 : (cross > 0 ? 1 : -1)
    }

    /// Whether `point`, on the line through `a` and `b`, lies between them.
    private static func within(_ point: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Bool {
        min(a.x, b.x) <= point.x && point.x <= max(a.x, b.x) && min(a.y, b.y) <= point.y && point.y <= max(a.y, b.y)
    }
}

extension Sequence<WallSegment> {
    /// Whether any of these walls stands on the straight walk between the two points.
    public func block(fromX: Double, fromY: Double, toX: Double, toY: Double) -> Bool {
        contains { $0.blocks(fromX: fromX, fromY: fromY, toX: toX, toY: toY) }
    }
}
