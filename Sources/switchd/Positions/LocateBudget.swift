import DaemonSupport
import Hummingbird
import Synchronization

/// How many readings each token may have located (`POST /v1/locate`): a bucket per token that
/// holds a minute's worth (``perMinute``) and refills at that rate, so a client may locate in
/// bursts but never make switchd spend more than a minute's worth of matching per minute on it.
///
/// Time comes from the given clock, so tests move it by hand. At most ``capacity`` tokens are
/// tracked: when full, those whose bucket has refilled (they owe nothing) are forgotten first,
/// then the one least recently used.
final class LocateBudget: Sendable {
    let perMinute: Int
    let capacity: Int
    private let time: ElapsedTime
    private let table = Mutex<[Int64: Bucket]>([:])

    private struct Bucket {
        /// Readings that may still be spent, as of `at`.
        var balance: Double
        var at: Duration
    }

    init(perMinute: Int, capacity: Int = 10_000, clock: any Clock<Duration> = ContinuousClock()) {
        precondition(perMinute > 0 && capacity > 0, "a budget needs positive limits")
        self.perMinute = perMinute
        self.capacity = capacity
        time = ElapsedTime(clock)
    }

    /// Spends `readings` from token `tokenID`'s bucket and returns nil; or, when the bucket
    /// holds fewer, spends nothing and returns how long until it holds them. A request of more
    /// than a minute's worth costs a full bucket.
    func spend(_ readings: Int, by tokenID: Int64) -> Duration? {
        let now = time.now
        let cost = Double(min(readings, perMinute))
        return table.withLock { table in
            var bucket = table[tokenID].map { refilled($0, to: now) } ?? Bucket(balance: Double(perMinute), at: now)
            guard bucket.balance >= cost else {
                table[tokenID] = bucket
                return .seconds((cost - bucket.balance) * 60 / Double(perMinute))
            }
            bucket.balance -= cost
            if table[tokenID] == nil, table.count >= capacity {
                makeRoom(in: &table, now: now)
            }
            table[tokenID] = bucket
            return nil
        }
    }

    /// The number of tokens tracked, for tests of the bound.
    var tokenCount: Int { table.withLock { $0.count } }

    private func refilled(_ bucket: Bucket, to now: Duration) -> Bucket {
        let earned = (now - bucket.at) / .seconds(60) * Double(perMinute)
        return Bucket(balance: min(Double(perMinute), bucket.balance + earned), at: now)
    }

    private func makeRoom(in table: inout [Int64: Bucket], now: Duration) {
        table = table.filter { refilled($0.value, to: now).balance < Double(perMinute) }
        if table.count >= capacity, let oldest = table.min(by: { $0.value.at < $1.value.at }) {
            table[oldest.key] = nil
        }
    }
}

extension APIError {
    /// 429 `too_many_requests` with `Retry-After` in whole seconds, for a token that spent its
    /// locate budget.
    static func locateBudgetSpent(perMinute: Int, retryAfter wait: Duration) -> APIError {
        let seconds = wait.wholeSecondsRoundedUp
        return APIError(
            .tooManyRequests, code: "too_many_requests",
            message: "this token has located \(perMinute) readings in the last minute, the most it may (locate-readings-per-minute); try again in \(seconds) s",
            headers: [.retryAfter: String(seconds)]
        )
    }
}
