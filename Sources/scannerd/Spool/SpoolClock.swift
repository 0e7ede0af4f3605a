/// The spool's view of a clock: durations since the spool opened, and sleeping until one. Any
/// `Clock<Duration>` will do (the continuous clock in scannerd, a test clock in tests); keeping
/// the clock's own instants inside lets deadlines stay absolute, so a seal due at an instant
/// happens at it however late the sleeper starts waiting.
struct SpoolClock: Sendable {
    /// Time since the spool opened.
    let now: @Sendable () -> Duration
    /// Returns when the clock reaches `elapsed` since the spool opened; throws
    /// `CancellationError` when the task is cancelled first.
    let sleep: @Sendable (_ until: Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { elapsed in try await clock.sleep(until: start.advanced(by: elapsed), tolerance: .zero) }
    }
}
