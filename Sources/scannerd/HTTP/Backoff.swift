/// Delays between retries: doubling from `initial` up to `maximum`, each drawn at random from
/// its upper half so that many clients retrying together spread out.
struct Backoff: Sendable {
    let initial: Duration
    let maximum: Duration
    private var current: Duration

    init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = maximum
        current = initial
    }

    /// The delay before the next retry; the one after will be twice as long, up to `maximum`.
    mutating func nextDelay() -> Duration {
        var generator = SystemRandomNumberGenerator()
        return nextDelay(using: &generator)
    }

    mutating func nextDelay(using generator: inout some RandomNumberGenerator) -> Duration {
        let ceiling = current
        current = min(current * 2, maximum)
        return ceiling * Double.random(in: 0.5...1, using: &generator)
    }

    /// Back to `initial`, after a success.
    mutating func reset() {
        current = initial
    }
}
