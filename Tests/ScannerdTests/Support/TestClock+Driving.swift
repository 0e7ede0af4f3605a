import Clocks
import Foundation
import ScanContract
@testable import scannerd

extension TestClock where Duration == Swift.Duration {
    /// Returns once some task sleeps on this clock, so that advancing it next wakes that task
    /// instead of passing it by. This waits for the sleep, not for time: call it only when the
    /// code under test is on its way to sleeping, with no other sleeper on the clock. Returns
    /// early when the test is cancelled (its time limit is up).
    func sleeper() async {
        while !Task.isCancelled, (try? await checkSuspension()) != nil {}
    }

    /// Advances the clock `step` at a time until `done` holds: for code with several timers at
    /// once (the simulated radio's), whose time then runs as fast as the code keeps up with it.
    func step(by step: Swift.Duration, until done: () async throws -> Bool) async rethrows {
        while try await !done() {
            await advance(by: step)
        }
    }

    /// The wall clock this clock implies: `start`, moved on by as much as the clock is advanced.
    func wallClock(from start: Date) -> @Sendable () -> Date {
        impliedWallClock(of: self, from: start)
    }
}

/// The wall clock `clock` implies: `start`, moved on by as much as the clock moves.
func impliedWallClock<C: Clock<Duration>>(of clock: C, from start: Date) -> @Sendable () -> Date {
    let origin = clock.now
    return { start.addingTimeInterval(origin.duration(to: clock.now).seconds) }
}
