/// A `Duration` read in the units that C and Foundation APIs take.
extension Duration {
    /// The duration in seconds, as Foundation's time intervals count them.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds (truncated).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
