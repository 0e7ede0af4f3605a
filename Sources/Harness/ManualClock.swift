import Synchronization

/// A clock that moves only when a test calls ``advance(by:)``: sleepers wake once it is
/// advanced to their deadline or past it.
///
/// It knows how many tasks sleep on it, counted in the same step that holds them, so a test can
/// move it only once every timer of the code under test waits on it (``sleepers``,
/// ``step(by:whenAsleep:until:)``): the code then keeps up with the clock however slowly this
/// machine runs it.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [(id: Int, deadline: Instant, wake: CheckedContinuation<Void, Never>)] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many tasks sleep on the clock now.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }

    /// Returns at once when `deadline` has come; otherwise once the clock is advanced to it.
    /// Throws `CancellationError` when the task is cancelled, at once if it was asleep.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let due = state.withLock { state in
                    guard deadline > state.now, !Task.isCancelled else { return true }
                    state.sleepers.append((id, deadline, continuation))
                    return false
                }
                if due { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                let sleeper = state.sleepers.first { $0.id == id }
                state.sleepers.removeAll { $0.id == id }
                return sleeper
            }
            sleeper?.wake.resume()
        }
        try Task.checkCancellation()
    }

    /// Moves the clock on by `duration` and wakes every sleeper whose deadline it reaches.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in woken { sleeper.wake.resume() }
    }

    /// Advances the clock `step` at a time until `done` holds, each step only once at least
    /// `asleep` tasks sleep on it: for code with several timers at once (a simulated radio's BLE
    /// and Wi-Fi loops), none of which may fall behind the others. This waits for the sleepers,
    /// not for time, yielding meanwhile; it ends with the test's time limit when they never sleep
    /// and `done` never holds.
    public func step(by step: Duration, whenAsleep asleep: Int, until done: () async throws -> Bool) async rethrows {
        while try await !done() {
            if Task.isCancelled { return }
            if sleepers >= asleep {
                advance(by: step)
            } else {
                await Task.yield()
            }
        }
    }
}
