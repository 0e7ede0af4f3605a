import DaemonSupport
import Logging
import Synchronization

/// Counts failed authentications (a token presented but malformed, unknown or revoked) per
/// client address and throttles an address that fails too often: after `maxFailures` failures
/// within `window` of its first one, every request from it that needs a token is refused (429)
/// until that window ends.
///
/// Time comes from the given clock, so tests move it by hand. The table holds at most
/// `capacity` addresses: when full, entries whose window has ended go first, then the one whose
/// window started earliest, so memory stays bounded whatever the number of addresses.
final class FailedAuthThrottle: Sendable {
    struct Policy: Sendable {
        var maxFailures: Int
        var window: Duration
        var capacity: Int

        static let standard = Policy(maxFailures: 10, window: .seconds(60), capacity: 10_000)
    }

    /// What one more failure did.
    enum Outcome: Equatable, Sendable {
        /// Counted; the address may try again (`failures` so far in its window).
        case counted(failures: Int)
        /// This failure reached the limit: the address is throttled for `retryAfter`.
        case throttled(retryAfter: Duration)
    }

    let policy: Policy
    /// The clock, read as the time since the throttle was made.
    private let time: ElapsedTime
    private let table = Mutex<[String: Entry]>([:])

    private struct Entry {
        var windowStart: Duration
        var failures: Int
    }

    init(policy: Policy = .standard, clock: any Clock<Duration> = ContinuousClock()) {
        precondition(policy.maxFailures > 0 && policy.window > .zero && policy.capacity > 0, "a throttle needs positive limits")
        self.policy = policy
        time = ElapsedTime(clock)
    }

    /// How long `address` must still wait, or nil when it may present a token now.
    func retryAfter(for address: String) -> Duration? {
        let now = time.now
        return table.withLock { table in
            guard let entry = table[address] else { return nil }
            let end = entry.windowStart + policy.window
            if now >= end {
                table[address] = nil
                return nil
            }
            return entry.failures >= policy.maxFailures ? end - now : nil
        }
    }

    /// Records one failed authentication from `address`.
    func recordFailure(from address: String) -> Outcome {
        let now = time.now
        return table.withLock { table in
            var entry = table[address] ?? Entry(windowStart: now, failures: 0)
            if now >= entry.windowStart + policy.window {
                entry = Entry(windowStart: now, failures: 0)
            }
            entry.failures += 1
            if table[address] == nil, table.count >= policy.capacity {
                makeRoom(in: &table, now: now)
            }
            table[address] = entry
            if entry.failures >= policy.maxFailures {
                return .throttled(retryAfter: entry.windowStart + policy.window - now)
            }
            return .counted(failures: entry.failures)
        }
    }

    /// Counts a refused credential (a token, an enrolment code) from the request's address in
    /// `metrics` and here, and logs it without the credential: `"<what> failed"` with the address,
    /// reason and `metadata`, one line per failure until the address is throttled, then one saying so.
    func recordRefusal(
        _ what: String, reason: String, metadata: Logger.Metadata = [:], context: AppRequestContext, metrics: SwitchdMetrics
    ) {
        metrics.recordAuthFailure(reason: reason)
        let metadata = metadata.merging(["address": "\(context.clientAddress)", "reason": "\(reason)"]) { $1 }
        switch recordFailure(from: context.clientAddress) {
        case .counted(let failures):
            context.logger.warning("\(what) failed", metadata: metadata.merging(["failures": "\(failures)"]) { $1 })
        case .throttled(let wait):
            context.logger.warning("\(what) failed too often: address throttled", metadata: metadata.merging([
                "failures": "\(policy.maxFailures)", "retryAfterSeconds": "\(wait.wholeSecondsRoundedUp)",
            ]) { $1 })
        }
    }

    /// The number of addresses held, for tests of the bound.
    var addressCount: Int { table.withLock { $0.count } }

    private func makeRoom(in table: inout [String: Entry], now: Duration) {
        table = table.filter { now < $0.value.windowStart + policy.window }
        if table.count >= policy.capacity, let oldest = table.min(by: { $0.value.windowStart < $1.value.windowStart }) {
            table[oldest.key] = nil
        }
    }
}
