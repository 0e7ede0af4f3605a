#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Tells a radio's dedicated thread to finish: set once from any thread, checked by the thread
/// between blocking calls (which all have short timeouts), and able to cut short a backoff wait.
final class StopSignal: @unchecked Sendable {
    private let condition = Condition()
    private var stopped = false

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Waits `duration` unless stopped first. Returns true when stopped.
    func wait(for duration: Duration) -> Bool {
        let deadline = ContinuousClock.now + duration
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            if !condition.wait(until: deadline) { break }
        }
        return stopped
    }
}
