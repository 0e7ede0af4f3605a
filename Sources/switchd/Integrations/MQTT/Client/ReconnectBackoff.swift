/// How long to wait before the next connection attempt: `minimum`, doubling after each failed
/// attempt up to `maximum`, and back to `minimum` once a connection is accepted.
struct ReconnectBackoff: Sendable {
    let minimum: Duration
    let maximum: Duration
    private var next: Duration

    init(minimum: Duration, maximum: Duration) {
        self.minimum = minimum
        self.maximum = max(minimum, maximum)
        next = minimum
    }

    /// The wait before the next attempt; the one after it is twice as long (at most `maximum`).
    mutating func delay() -> Duration {
        let delay = next
        next = min(next * 2, maximum)
        return delay
    }

    mutating func reset() {
        next = minimum
    }
}
