import Foundation

/// Tasks waiting for news that another thread announces (a line printed, a datagram read).
///
/// A waiter reads ``current`` before it looks at the state it cares about, then waits for news
/// after that reading: news announced in between is not missed.
final class Wakeups: @unchecked Sendable {
    private let lock = NSLock()
    private var generation = 0
    private var waiting: [(id: Int, after: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextID = 0

    /// How much news there has been; pass it to ``wait(after:before:)``.
    var current: Int { lock.withLock { generation } }

    /// Wakes every waiter.
    func announce() {
        let woken = lock.withLock {
            generation += 1
            defer { waiting = [] }
            return waiting.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// True once there is news after `generation`; false when `deadline` comes first.
    func wait(after generation: Int, before deadline: ContinuousClock.Instant) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.news(after: generation) }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// True once there is news after `generation`; false when cancelled first.
    private func news(after generation: Int) async -> Bool {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = lock.withLock {
                    if self.generation > generation || Task.isCancelled { return true }
                    waiting.append((id, generation, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = lock.withLock {
                let waiter = waiting.first { $0.id == id }
                waiting.removeAll { $0.id == id }
                return waiter
            }
            waiter?.continuation.resume()
        }
        return lock.withLock { self.generation > generation }
    }
}
