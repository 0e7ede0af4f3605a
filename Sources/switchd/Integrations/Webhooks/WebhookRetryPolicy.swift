/// When a failed delivery is tried again, when it is given up (`dead`), and how long one attempt may take.
///
/// The wait after the n-th failed attempt is `firstRetry` × 2^(n−1), at most `longestRetry`;
/// with the defaults (1 s doubling to 1 h, 20 attempts) a receiver down for about 8 hours still
/// gets every event.
struct WebhookRetryPolicy: Sendable {
    static let defaultMaxAttempts = 20

    var maxAttempts = defaultMaxAttempts
    var firstRetry = Duration.seconds(1)
    var longestRetry = Duration.seconds(3600)
    /// An attempt with no answer by then has failed (connecting takes at most 5 s of it).
    var attemptTimeout = Duration.seconds(10)

    /// The wait after `attempts` failed attempts (1 or more).
    func delay(afterAttempts attempts: Int) -> Duration {
        var delay = firstRetry
        for _ in 1..<max(1, attempts) where delay < longestRetry {
            delay *= 2
        }
        return min(delay, longestRetry)
    }

    /// Whether a delivery that has now failed `attempts` times is given up.
    func isDead(afterAttempts attempts: Int) -> Bool {
        attempts >= maxAttempts
    }
}
