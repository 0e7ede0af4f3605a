/// The convex hull of `points` by Andrew's monotone chain: its corners anticlockwise (x east,
/// y north), starting at the lowest-leftmost point, without repeating it. Points on an edge are
/// left out; fewer than three corners means the points lie on one line or one spot.
public func convexHull(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
    let sorted = points.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
    guard sorted.count >= 3 else { return sorted }
    func cross(_ o: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }
    var lower: [(x: Double, y: Double)] = []
    for point in sorted {
        while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], point) <= 0 { lower.removeLast() }
        lower.append(point)
    }
    var upper: [(x: Double, y: Double)] = []
    for point in sorted.reversed() {
        while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], point) <= 0 { upper.removeLast() }
        upper.append(point)
    }
    return Array(lower.dropLast() + upper.dropLast())
}
