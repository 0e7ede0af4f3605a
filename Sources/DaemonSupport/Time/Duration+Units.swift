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

extension Duration {
    /// A duration of `seconds` (as configuration files and flags give it), rounded up to the next
    /// whole millisecond so that a wait is never shorter than the setting asked for.
    ///
    /// The caller checks the range; a negative or non-finite value traps, as `Int64(_:)` does.
    public init(secondsRoundedUp seconds: Double) {
        self = .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }
}
