import Dispatch
import Synchronization

/// When each scanner's long-poll brought back each new revision, so the flip driver can time a
/// flip from its PATCH to the scanner seeing it.
final class FlipLog: Sendable {
    private struct Key: Hashable {
        var scanner: Int
        var revision: Int
    }

    private struct State {
        var arrivals: [Key: UInt64] = [:]
        var waiters: [Key: CheckedContinuation<UInt64?, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Scanner `scanner`'s long-poll answered with `revision` at `time` (CLOCK_MONOTONIC ns).
    func arrived(scanner: Int, revision: Int, at time: UInt64) {
        let key = Key(scanner: scanner, revision: revision)
        let waiter = state.withLock { state -> CheckedContinuation<UInt64?, Never>? in
            state.arrivals[key] = time
            return state.waiters.removeValue(forKey: key)
        }
        waiter?.resume(returning: time)
    }

    /// When scanner `scanner` saw `revision`: at once if it already has, else when it does, or nil
    /// after `timeout`.
    func arrival(scanner: Int, revision: Int, timeout: Duration) async -> UInt64? {
        let key = Key(scanner: scanner, revision: revision)
        let timer = Task {
            try await Task.sleep(for: timeout)
            let waiter = state.withLock { $0.waiters.removeValue(forKey: key) }
            waiter?.resume(returning: nil)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let known = state.withLock { state -> UInt64?? in
                if let time = state.arrivals[key] { return .some(time) }
                state.waiters[key] = continuation
                return .none
            }
            if let known { continuation.resume(returning: known) }
        }
    }
}
