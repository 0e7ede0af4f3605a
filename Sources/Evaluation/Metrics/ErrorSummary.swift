/// Summary of positioning errors (metres, or whatever unit the errors are in) over a test set.
/// Percentiles interpolate linearly between the sorted errors, as NumPy's default does, so the
/// figures compare with those published from Python.
public struct ErrorSummary: Hashable, Sendable, Codable {
    public var count: Int
    public var mean: Double
    public var median: Double
    public var p75: Double
    public var p95: Double
    public var max: Double

    /// Nil for no errors: a summary of nothing would only hold made-up numbers.
    public init?(errors: [Double]) {
        guard !errors.isEmpty else { return nil }
        let sorted = errors.sorted()
        count = sorted.count
        mean = sorted.reduce(0, +) / Double(sorted.count)
        median = Self.percentile(50, ofSorted: sorted)
        p75 = Self.percentile(75, ofSorted: sorted)
        p95 = Self.percentile(95, ofSorted: sorted)
        max = sorted[sorted.count - 1]
    }

    /// The `p`-th percentile (0…100) of ascending values, interpolating between the two nearest ranks.
    public static func percentile(_ p: Double, ofSorted sorted: [Double]) -> Double {
        guard let last = sorted.indices.last else { return .nan }
        let rank = p / 100 * Double(last)
        let below = Int(rank.rounded(.down))
        let above = Swift.min(below + 1, last)
        let fraction = rank - Double(below)
        return sorted[below] + (sorted[above] - sorted[below]) * fraction
    }
}
