/// What a surveyed location's own survey says about positioning there: a quantile of the errors
/// of its samples when located against the survey without it (``LeaveOneLocationOut``).
public struct ExpectedError: Codable, Hashable, Sendable {
    /// The quantile reported by default: 0.68, the share of fixes that fall within a stated
    /// accuracy radius by the usual convention (one standard deviation of a normal error), so that
    /// "± expected error" reads as the positions' own `accuracyMetres` do.
    public static let standardQuantile = 0.68

    /// The error, metres, that this share of the location's samples stayed within.
    public var metres: Double
    /// The share, 0…1 (``standardQuantile`` unless a caller chose another).
    public var quantile: Double
    /// Samples located (those the method answered for); the estimate is rough with few.
    public var samples: Int

    public init(metres: Double, quantile: Double, samples: Int) {
        self.metres = metres
        self.quantile = quantile
        self.samples = samples
    }

    /// The `quantile` of `errors` (linear between order statistics), or nil when there are none.
    public init?(errors: [Double], quantile: Double = Self.standardQuantile) {
        guard !errors.isEmpty else { return nil }
        let sorted = errors.sorted()
        let position = quantile * Double(sorted.count - 1)
        let below = Int(position.rounded(.down))
        let above = min(below + 1, sorted.count - 1)
        let metres = sorted[below] + (sorted[above] - sorted[below]) * (position - Double(below))
        self.init(metres: metres, quantile: quantile, samples: errors.count)
    }
}
