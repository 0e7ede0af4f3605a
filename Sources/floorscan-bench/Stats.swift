/// Order statistics of a sample of durations, in milliseconds.
struct Stats {
    let sorted: [Double]

    init(_ values: [Double]) {
        sorted = values.sorted()
    }

    /// The nearest-rank percentile (`p` in 0…100).
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank - 1, 0), sorted.count - 1)]
    }

    var count: Int { sorted.count }
    var maximum: Double { sorted.last ?? .nan }
}

func median(_ values: [Double]) -> Double {
    Stats(values).percentile(50)
}
