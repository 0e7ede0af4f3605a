/// How closely two paired series move together.
public enum Correlation {
    /// Pearson's r of the pairs; nil with fewer than two pairs or when either series is constant
    /// (r is undefined then).
    public static func pearson(_ pairs: [(Double, Double)]) -> Double? {
        guard pairs.count >= 2 else { return nil }
        let n = Double(pairs.count)
        let meanA = pairs.reduce(0) { $0 + $1.0 } / n, meanB = pairs.reduce(0) { $0 + $1.1 } / n
        var covariance = 0.0, varianceA = 0.0, varianceB = 0.0
        for (a, b) in pairs {
            covariance += (a - meanA) * (b - meanB)
            varianceA += (a - meanA) * (a - meanA)
            varianceB += (b - meanB) * (b - meanB)
        }
        guard varianceA > 0, varianceB > 0 else { return nil }
        return covariance / (varianceA * varianceB).squareRoot()
    }

    /// Spearman's ρ: Pearson's r of the ranks (ties share their mean rank), so one huge error
    /// does not decide it; nil where ``pearson(_:)`` is.
    public static func spearman(_ pairs: [(Double, Double)]) -> Double? {
        let ranksA = ranks(pairs.map(\.0)), ranksB = ranks(pairs.map(\.1))
        return pearson(Array(zip(ranksA, ranksB)))
    }

    /// 1-based ranks of `values` in their own order, ties given the mean of the ranks they span.
    static func ranks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count, values[order[end + 1]] == values[order[start]] { end += 1 }
            let shared = Double(start + end) / 2 + 1
            for position in start...end { ranks[order[position]] = shared }
            start = end + 1
        }
        return ranks
    }
}
