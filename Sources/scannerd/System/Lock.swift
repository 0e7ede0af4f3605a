import Synchronization

/// A lock for the few fields a class shares between a radio thread and Swift tasks (counters,
/// flags). A class, so that its owner can keep it in a `let` beside the fields it guards; the
/// lock itself is the standard library's `Mutex` (a futex on Linux), no Foundation needed.
final class Lock: Sendable {
    private let mutex = Mutex(())

    /// Runs `body` holding the lock. Not reentrant: `body` must not take this lock again.
    func withLock<Result: Sendable>(_ body: () -> Result) -> Result {
        mutex.withLock { _ in body() }
    }
}
