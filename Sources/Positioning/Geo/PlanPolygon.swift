/// A simple polygon in plan metres, its corners in order (either way round), the last joined
/// back to the first: a room's outline (`PUT /v1/rooms/{id}/outline`). Pure geometry, exact
/// for the plan's sizes: no tolerance beyond the arithmetic of `Double`.
public struct PlanPolygon: Hashable, Sendable {
    public struct Point: Hashable, Sendable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    public let corners: [Point]

    public init(_ corners: [Point]) {
        self.corners = corners
    }

    /// Twice the signed area by the shoelace formula: positive when the corners run anticlockwise.
    private var doubleSignedArea: Double {
        guard corners.count >= 3 else { return 0 }
        var sum = 0.0
        for (a, b) in edges { sum += a.x * b.y - b.x * a.y }
        return sum
    }

    /// The area enclosed, square metres (0 for fewer than three corners or all on one line).
    public var area: Double { abs(doubleSignedArea) / 2 }

    /// Each edge, from a corner to the next, the last back to the first.
    public var edges: [(Point, Point)] {
        corners.indices.map { (corners[$0], corners[($0 + 1) % corners.count]) }
    }

    /// Whether `point` is inside or on the boundary (an edge or a corner counts as inside), by
    /// the even-odd crossing rule. A polygon of fewer than three corners contains nothing.
    public func contains(_ point: Point) -> Bool {
        guard corners.count >= 3 else { return false }
        var inside = false
        for (a, b) in edges {
            if Self.onSegment(point, a, b) { return true }
            // Half-open in y, so a ray through a corner counts it once.
            if (a.y > point.y) != (b.y > point.y) {
                let crossingX = a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if point.x < crossingX { inside.toggle() }
            }
        }
        return inside
    }

    /// Why the corners do not make a simple polygon with an area, or nil when they do: fewer than
    /// three corners, two corners at one spot, edges that cross or touch other than where
    /// neighbours meet, or all corners on one line.
    public var problem: String? {
        let n = corners.count
        guard n >= 3 else { return "needs at least 3 corners, got \(n)" }
        var seen: [Point: Int] = [:]
        for (index, corner) in corners.enumerated() {
            if let first = seen[corner] {
                return "corners \(first) and \(index) are the same point (\(corner.x), \(corner.y))"
            }
            seen[corner] = index
        }
        let edges = self.edges
        for i in 0..<n {
            for j in (i + 1)..<n {
                let neighbours = j == i + 1 || (i == 0 && j == n - 1)
                let (a, b) = edges[i]
                let (c, d) = edges[j]
                if neighbours {
                    // Neighbours share one corner; they must not fold back over each other.
                    let shared = j == i + 1 ? b : a
                    let (far1, far2) = j == i + 1 ? (a, d) : (b, c)
                    if Self.cross(far1, shared, far2) == 0, Self.dot(far1, shared, far2) > 0 {
                        return "edges \(i) and \(j) fold back over each other at (\(shared.x), \(shared.y))"
                    }
                } else if Self.segmentsTouch(a, b, c, d) {
                    return "edges \(i) and \(j) cross: an outline must not intersect itself"
                }
            }
        }
        guard doubleSignedArea != 0 else { return "the corners lie on one line and enclose no area" }
        return nil
    }

    /// (a − o) × (b − o): positive when o → a → b turns anticlockwise, 0 when on one line.
    static func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }

    /// (a − o) · (b − o): positive when a and b lie the same way from o.
    static func dot(_ a: Point, _ o: Point, _ b: Point) -> Double {
        (a.x - o.x) * (b.x - o.x) + (a.y - o.y) * (b.y - o.y)
    }

    /// Whether `p` lies on the segment from `a` to `b`, ends included.
    static func onSegment(_ p: Point, _ a: Point, _ b: Point) -> Bool {
        cross(a, b, p) == 0 && min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
    }

    /// Whether the closed segments ab and cd share a point.
    static func segmentsTouch(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
        let d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        return onSegment(a, c, d) || onSegment(b, c, d) || onSegment(c, a, b) || onSegment(d, a, b)
    }
}

/// The outlined rooms of one floor and the rule that picks a point's room among them: the room
/// whose outline contains the point (an edge or a corner counts as inside); where outlines
/// overlap, the one of smallest area (a room drawn inside a hall wins over the hall), and of
/// equal areas the lowest room ID. Nil for a point in no outline: the caller then falls back to
/// the room of the nearest location (docs/tags.md, "Rooms").
public struct RoomOutlines: Sendable {
    public struct Outlined: Sendable {
        public var roomID: Int64
        public var polygon: PlanPolygon
        public var area: Double

        public init(roomID: Int64, polygon: PlanPolygon) {
            self.roomID = roomID
            self.polygon = polygon
            area = polygon.area
        }
    }

    /// Smallest area first, then lowest room ID: the order the rule tries them in.
    public let rooms: [Outlined]

    public init(_ rooms: [Outlined]) {
        self.rooms = rooms.sorted { ($0.area, $0.roomID) < ($1.area, $1.roomID) }
    }

    public var isEmpty: Bool { rooms.isEmpty }

    /// The room whose outline holds (x, y) by the rule above, or nil.
    public func room(atX x: Double, y: Double) -> Int64? {
        let point = PlanPolygon.Point(x: x, y: y)
        return rooms.first { $0.polygon.contains(point) }?.roomID
    }
}
