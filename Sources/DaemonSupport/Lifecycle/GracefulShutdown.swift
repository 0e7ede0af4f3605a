import Synchronization

/// The graceful-shutdown signal of one service: triggered once, by its ``DaemonServiceGroup``
/// (SIGTERM, SIGINT, or ``DaemonServiceGroup/triggerGracefulShutdown()``) when the services after
/// it have ended. The service reads it as the task-local ``current`` through the static helpers
/// below; outside a group there is none, and they wait for cancellation alone.
public final class GracefulShutdown: Sendable {
    private struct State {
        var triggered = false
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
        var nextWaiter = 0
    }

    /// The signal of the service this task runs for; nil outside a group.
    @TaskLocal public static var current: GracefulShutdown?

    private let state = Mutex(State())

    public init() {}

    public var isTriggered: Bool { state.withLock { $0.triggered } }

    /// Wakes every waiter; later calls do nothing.
    public func trigger() {
        let waiters = state.withLock { state in
            state.triggered = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Runs `operation` with this signal as ``current``.
    public func bound<T>(_ operation: () async throws -> T) async rethrows -> T {
        try await Self.$current.withValue(self, operation: operation)
    }

    /// Returns once triggered; throws `CancellationError` when the task is cancelled first.
    public func wait() async throws {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { state in
                    if state.triggered { return .success(()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = waiter
                    return nil
                }
                if let now { waiter.resume(with: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }
}

extension GracefulShutdown {
    /// True once the graceful shutdown of the service this task runs for has begun.
    public static var isUnderway: Bool { current?.isTriggered ?? false }

    /// Returns once the graceful shutdown of this task's service begins; throws `CancellationError`
    /// when the task is cancelled first (outside a group, only that ends it).
    public static func wait() async throws {
        try await (current ?? GracefulShutdown()).wait()
    }

    /// Runs `operation` in a child task that is cancelled when the graceful shutdown begins; what
    /// it returns or throws (a `CancellationError` then, typically) is what this returns or throws.
    public static func cancelling<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let shutdown = current else { return try await operation() }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                // Also ends when the task is cancelled, which cancels the operation anyway.
                try? await shutdown.wait()
                return nil
            }
            while let next = try await group.next() {
                // The operation's result: the shutdown waiter is no longer needed.
                if let result = next {
                    group.cancelAll()
                    return result
                }
                // The shutdown began: the operation is cancelled and its end awaited.
                group.cancelAll()
            }
            throw CancellationError()  // not reached: the operation's task always reports
        }
    }
}
