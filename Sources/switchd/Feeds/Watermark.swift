/// A number that only grows, and the tasks waiting for it to pass a value.
///
/// Waiters compare against a value they read from the database *before* waiting, so a change
/// published between their read and their wait still wakes them: nothing is missed.
actor Watermark {
    private(set) var value: Int64 = 0
    private var waiters: [UInt64: Waiter] = [:]
    private var nextWaiterID: UInt64 = 0

    private struct Waiter {
        var threshold: Int64
        var continuation: CheckedContinuation<Void, Never>
    }

    /// Raises the value (a lower one is ignored) and wakes every waiter it now passes.
    func raise(to newValue: Int64) {
        guard newValue > value else { return }
        value = newValue
        for (id, waiter) in waiters where waiter.threshold < newValue {
            waiters[id] = nil
            waiter.continuation.resume()
        }
    }

    /// Raises the value by `step` (one by default).
    func bump(by step: Int64 = 1) {
        raise(to: value + step)
    }

    /// Returns once the value is above `threshold`, at once if it already is, or when the calling
    /// task is cancelled.
    func wait(untilAbove threshold: Int64) async {
        let id = nextWaiterID
        nextWaiterID += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if value > threshold || Task.isCancelled {
                    continuation.resume()
                } else {
                    waiters[id] = Waiter(threshold: threshold, continuation: continuation)
                }
            }
        } onCancel: {
            // The handler cannot reach the actor synchronously; the hop resumes the waiter promptly.
            Task { await self.cancelWaiter(id) }
        }
    }

    private func cancelWaiter(_ id: UInt64) {
        waiters.removeValue(forKey: id)?.continuation.resume()
    }
}
