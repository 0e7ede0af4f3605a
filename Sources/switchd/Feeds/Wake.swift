import ServiceLifecycle

/// Why a waiting request or service woke up.
enum Wake: Sendable {
    case changed
    case timedOut
    /// The process is shutting down gracefully, or the task was cancelled (the client left).
    case stopping
}

/// Waits for `change` to return, for `timeout` to pass on `clock`, or for graceful shutdown or
/// cancellation, whichever comes first; the others are cancelled.
func wake(
    after timeout: Duration, on clock: any Clock<Duration> = ContinuousClock(), orWhen change: @escaping @Sendable () async -> Void
) async -> Wake {
    let wake = await withTaskGroup(of: Wake.self) { group in
        group.addTask {
            await change()
            return Task.isCancelled ? .stopping : .changed
        }
        group.addTask {
            do {
                try await clock.sleep(for: timeout)
                return .timedOut
            } catch {
                return .stopping
            }
        }
        group.addTask {
            do {
                try await gracefulShutdown()
            } catch {
                // Cancelled: another wake came first, or the whole wait was cancelled.
            }
            return .stopping
        }
        let first = await group.next() ?? .stopping
        group.cancelAll()
        return first
    }
    return Task.isCancelled ? .stopping : wake
}
