import Clocks
import DaemonSupport
import Harness
import Logging
import Synchronization
import Testing

/// The watchdog on a clock the test advances; each ping is preceded by a health check, which
/// the test hears of as it happens.
@Suite(.timeLimit(.minutes(1)))
struct WatchdogServiceTests {
    let logger = Logger(label: "test")

    /// A health check the test controls and hears of.
    final class Health: Sendable {
        let healthy = Mutex(true)
        let checks: AsyncStream<Void>
        private let checked: AsyncStream<Void>.Continuation

        init() {
            (checks, checked) = AsyncStream.makeStream()
        }

        @Sendable func check() -> Bool {
            checked.yield()
            return healthy.withLock { $0 }
        }
    }

    @Test func pingsAtHalfTheIntervalWhileHealthy() async throws {
        let receiver = try NotifySocketReceiver(abstract: false)
        let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.notifySocket])
        let clock = TestClock()
        let health = Health()
        let built = WatchdogService(
            notifier: notifier, environment: ["WATCHDOG_USEC": "100000"], logger: logger, clock: clock, isHealthy: health.check
        )
        let watchdog = try #require(built)
        #expect(watchdog.interval == .milliseconds(50))
        let running = Task { try await watchdog.run() }
        var checks = health.checks.makeAsyncIterator()
        // The first ping goes at once, then one per 50 ms, none sooner.
        for _ in 0..<4 {
            _ = await checks.next()
            await clock.sleeper()
            await clock.advance(by: .milliseconds(49))
            await #expect(throws: SuspensionError.self, "no ping before 50 ms") { try await clock.checkSuspension() }
            // Exactly to the deadline (the sleep is known to be registered), so the next one
            // is 50 ms from here as well.
            await clock.advance(by: .milliseconds(1))
        }
        _ = await checks.next()
        await clock.sleeper()
        running.cancel()
        try await running.value
        _ = try await receiver.waitForMessage { _ in receiver.messages().count >= 5 }
        #expect(receiver.messages() == Array(repeating: "WATCHDOG=1", count: 5))
    }

    @Test func stopsPingingWhileUnhealthy() async throws {
        let receiver = try NotifySocketReceiver(abstract: true)
        let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.notifySocket])
        let clock = TestClock()
        let health = Health()
        let built = WatchdogService(
            notifier: notifier, environment: ["WATCHDOG_USEC": "40000"], logger: logger, clock: clock, isHealthy: health.check
        )
        let watchdog = try #require(built)
        let running = Task { try await watchdog.run() }
        var checks = health.checks.makeAsyncIterator()
        _ = await checks.next()
        await clock.sleeper()
        _ = try await receiver.waitForMessage { $0 == "WATCHDOG=1" }
        health.healthy.withLock { $0 = false }
        for _ in 0..<3 {
            await clock.advance(by: watchdog.interval)
            _ = await checks.next()
            await clock.sleeper()
        }
        running.cancel()
        try await running.value
        // Health is still checked every interval; the pings stopped with the first bad check.
        #expect(receiver.messages() == ["WATCHDOG=1"])
    }

    @Test func offWithoutWatchdogUsecOrForAnotherProcess() throws {
        let receiver = try NotifySocketReceiver(abstract: false)
        let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.notifySocket])
        #expect(WatchdogService(notifier: notifier, environment: [:], logger: logger, isHealthy: { true }) == nil)
        #expect(WatchdogService(notifier: notifier, environment: ["WATCHDOG_USEC": "0"], logger: logger, isHealthy: { true }) == nil)
        #expect(WatchdogService(
            notifier: notifier, environment: ["WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"], logger: logger, isHealthy: { true }
        ) == nil)
        let silent = try SystemdNotifier(environment: [:])
        #expect(WatchdogService(notifier: silent, environment: ["WATCHDOG_USEC": "1000000"], logger: logger, isHealthy: { true }) == nil)
    }
}

extension TestClock where Duration == Swift.Duration {
    /// Returns once some task sleeps on this clock, so that advancing it next wakes that task
    /// instead of passing it by. This waits for the sleep, not for time: call it only when the
    /// code under test is on its way to sleeping, with no other sleeper on the clock. Returns
    /// early when the test is cancelled (its time limit is up).
    func sleeper() async {
        while !Task.isCancelled, (try? await checkSuspension()) != nil {}
    }
}
