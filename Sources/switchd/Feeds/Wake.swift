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
    func deadline<C: Clock<Duration>>(on clock: C) async -> Wake {
        await wake(at: clock.now.advanced(by: timeout), on: clock, orWhen: change)
    }
    return await deadline(on: clock)
}

/// Waits for `change` to return, for `clock` to reach `deadline` (at once when it has), or for
/// graceful shutdown or cancellation, whichever comes first; the others are cancelled. A
/// deadline fixed before the wait starts cannot be missed by a clock moved meanwhile.
func wake<C: Clock<Duration>>(at deadline: C.Instant, on clock: C, orWhen change: @escaping @Sendable () async -> Void) async -> Wake {
    let wake = await withTaskGroup(of: Wake.self) { group in
        group.addTask {
            await change()
            return Task.isCancelled ? .stopping : .changed
        }
        group.addTask {
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
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
