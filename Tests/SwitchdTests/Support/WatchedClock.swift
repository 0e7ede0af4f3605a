import Clocks
import Foundation
import Synchronization

/// A `TestClock` that counts the tasks sleeping on it, so a test can wait until the code under
/// test sleeps even when other tasks sleep on the clock too (switchd's deadline service always
/// does).
///
/// A sleeper is counted once its deadline is fixed, just before the `TestClock` holds it: advance
/// the clock strictly past a deadline (not exactly to it) and the sleeper wakes however the two
/// steps interleave.
final class WatchedClock: Clock, Sendable {
    typealias Instant = TestClock<Duration>.Instant

    private struct State {
        var sleeping = 0
        var waiters: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiterID = 0
    }

    let base = TestClock()
    private let state = Mutex(State())

    var now: Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        changeSleeping(by: 1)
        defer { changeSleeping(by: -1) }
        try await base.sleep(until: deadline, tolerance: tolerance)
    }

    func advance(by duration: Duration) async {
        await base.advance(by: duration)
    }

    /// Returns once at least `count` tasks sleep on this clock, or the test is cancelled (its
    /// time limit is up).
    func sleepers(_ count: Int) async {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let enough = state.withLock { state in
                    if state.sleeping >= count || Task.isCancelled { return true }
                    state.waiters.append((id, count, continuation))
                    return false
                }
                if enough { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                let waiter = state.waiters.first { $0.id == id }
                state.waiters.removeAll { $0.id == id }
                return waiter
            }
            waiter?.continuation.resume()
        }
    }

    /// The wall clock this clock implies: `start`, moved on by as much as the clock is advanced.
    func wallClock(from start: Date) -> @Sendable () -> Date {
        let origin = now
        return { [base] in
            let elapsed = origin.duration(to: base.now).components
            return start.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        }
    }

    private func changeSleeping(by change: Int) {
        let woken = state.withLock { state in
            state.sleeping += change
            let sleeping = state.sleeping
            let woken = state.waiters.filter { $0.count <= sleeping }.map(\.continuation)
            state.waiters.removeAll { $0.count <= sleeping }
            return woken
        }
        for continuation in woken { continuation.resume() }
    }
}
