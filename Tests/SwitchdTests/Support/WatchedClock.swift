import Clocks
import Foundation
import Harness

/// A `TestClock` that counts the tasks sleeping on it, so a test can wait until the code under
/// test sleeps even when other tasks sleep on the clock too (switchd's deadline service always
/// does).
///
/// A sleeper is counted once its deadline is fixed, just before the `TestClock` holds it: advance
/// the clock strictly past a deadline (not exactly to it) and the sleeper wakes however the two
/// steps interleave.
final class WatchedClock: Clock, Sendable {
    typealias Instant = TestClock<Duration>.Instant

    let base = TestClock()
    private let sleeping = WaitableCount()

    var now: Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        sleeping.add(1)
        defer { sleeping.add(-1) }
        try await base.sleep(until: deadline, tolerance: tolerance)
    }

    func advance(by duration: Duration) async {
        await base.advance(by: duration)
    }

    /// Returns once at least `count` tasks sleep on this clock, or the test is cancelled (its
    /// time limit is up).
    func sleepers(_ count: Int) async {
        await sleeping.reached(count)
    }

    /// The wall clock this clock implies: `start`, moved on by as much as the clock is advanced.
    func wallClock(from start: Date) -> @Sendable () -> Date {
        let origin = now
        return { [base] in
            let elapsed = origin.duration(to: base.now).components
            return start.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        }
    }
}
