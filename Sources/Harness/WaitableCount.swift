import Synchronization

/// A count that tasks can wait on: ``reached(_:)`` returns once the count is at least its target,
/// woken by the ``add(_:)`` that gets it there, never by polling. For tests waiting on what
/// another thread or task counts (requests arrived, tasks asleep on a clock).
public final class WaitableCount: Sendable {
    private struct Waiter {
        let id: Int
        let target: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var count = 0
        var waiters: [Waiter] = []
        var nextWaiterID = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var value: Int { state.withLock { $0.count } }

    /// Changes the count by `change` (negative to lower it) and wakes whoever it now satisfies.
    public func add(_ change: Int = 1) {
        let woken = state.withLock { state in
            state.count += change
            let count = state.count
            defer { state.waiters.removeAll { $0.target <= count } }
            return state.waiters.filter { $0.target <= count }
        }
        for waiter in woken { waiter.continuation.resume() }
    }

    /// Returns once the count is at least `target`, however long that takes, or as soon as the
    /// calling task is cancelled (a test's time limit is up).
    public func reached(_ target: Int) async {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.count >= target || Task.isCancelled { return true }
                    state.waiters.append(Waiter(id: id, target: target, continuation: continuation))
                    return false
                }
                if now { continuation.resume() }
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
}
