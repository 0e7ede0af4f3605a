/// A clock read as the time passed since an origin (the moment this value was made).
///
/// Types that hold `any Clock<Duration>` cannot subtract its instants (the existential hides
/// their type); they keep these durations instead. Production passes `ContinuousClock()`;
/// tests pass a clock they advance by hand.
public struct ElapsedTime: Sendable {
    public let clock: any Clock<Duration>
    private let read: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    public init(_ clock: any Clock<Duration>) {
        self.clock = clock
        (read, sleeper) = Self.accessors(of: clock)
    }

    private static func accessors<C: Clock<Duration>>(
        of clock: C
    ) -> (@Sendable () -> Duration, @Sendable (Duration) async throws -> Void) {
        let origin = clock.now
        return (
            { origin.duration(to: clock.now) },
            { elapsed in try await clock.sleep(until: origin.advanced(by: elapsed), tolerance: nil) }
        )
    }

    /// The time passed since the origin.
    public var now: Duration { read() }

    /// Returns once `elapsed` has passed since the origin (at once when it already has): the
    /// deadline is fixed by `elapsed`, not by when this is called. Throws `CancellationError`
    /// when the task is cancelled.
    public func sleep(until elapsed: Duration) async throws {
        try await sleeper(elapsed)
    }
}
