import Foundation

/// Summary of positioning errors, metres, as evaluations report them.
public struct BLEErrorSummary: Codable, Hashable, Sendable {
    public var mean: Double
    public var median: Double
    public var p75: Double
    public var p95: Double
    public var queries: Int

    /// Computed as ``ErrorSummary`` computes them (NumPy's linear percentiles); all zero for no errors.
    public init(errors: [Double]) {
        let summary = ErrorSummary(errors: errors)
        queries = errors.count
        mean = summary?.mean ?? 0
        median = summary?.median ?? 0
        p75 = summary?.p75 ?? 0
        p95 = summary?.p95 ?? 0
    }
}
