import Foundation

/// Summary of positioning errors, metres, as evaluations report them.
public struct BLEErrorSummary: Codable, Hashable, Sendable {
    public var mean: Double
    public var median: Double
    public var p75: Double
    public var p95: Double
    public var queries: Int

    /// Percentiles by linear interpolation between order statistics; all zero for no errors.
    public init(errors: [Double]) {
        let sorted = errors.sorted()
        queries = sorted.count
        mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        median = Self.percentile(sorted, 50)
        p75 = Self.percentile(sorted, 75)
        p95 = Self.percentile(sorted, 95)
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard let first = sorted.first else { return 0 }
        guard sorted.count > 1 else { return first }
        let rank = p / 100 * Double(sorted.count - 1)
        let low = Int(rank.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }
}
