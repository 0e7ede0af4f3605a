/// The weighted mean of some points on a plan and their weighted spread around it: what the
/// fingerprint methods answer from their best matches.
struct WeightedCentroid: Hashable, Sendable {
    var x: Double
    var y: Double
    /// Root of the weighted mean squared distance to (x, y), metres.
    var spread: Double

    /// - Precondition: at least one point, and weights summing to more than 0.
    init(_ points: [(x: Double, y: Double, weight: Double)]) {
        let total = points.reduce(0) { $0 + $1.weight }
        x = points.reduce(0) { $0 + $1.weight * $1.x } / total
        y = points.reduce(0) { $0 + $1.weight * $1.y } / total
        let (cx, cy) = (x, y)
        spread = (points.reduce(0) { $0 + $1.weight * ((($1.x - cx) * ($1.x - cx)) + (($1.y - cy) * ($1.y - cy))) } / total).squareRoot()
    }
}
