import DaemonSupport
import Harness
import Logging
import Synchronization
import Testing

@Suite struct WatchdogServiceTests {
    let logger = Logger(label: "test")

    @Test func pingsAtHalfTheIntervalWhileHealthy() async throws {
        let receiver = try NotifySocketReceiver(abstract: false)
        let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.notifySocket])
        let built = WatchdogService(notifier: notifier, environment: ["WATCHDOG_USEC": "100000"], logger: logger, isHealthy: { true })
        let watchdog = try #require(built)
        #expect(watchdog.interval == .milliseconds(50))
        let start = ContinuousClock.now
        let running = Task { try await watchdog.run() }
        _ = try await receiver.waitForMessage(timeout: .seconds(30)) { _ in receiver.messages().count >= 4 }
        let elapsed = ContinuousClock.now - start
        running.cancel()
        try await running.value
        #expect(receiver.messages().allSatisfy { $0 == "WATCHDOG=1" })
        // The first ping goes at once, then one per 50 ms: four take at least 150 ms.
        #expect(elapsed >= .milliseconds(150), "\(elapsed)")
    }

    @Test func stopsPingingWhileUnhealthy() async throws {
        let receiver = try NotifySocketReceiver(abstract: true)
        let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.notifySocket])
        let healthy = Mutex(true)
        let checks = Mutex(0)
        let built = WatchdogService(
            notifier: notifier, environment: ["WATCHDOG_USEC": "40000"], logger: logger,
            isHealthy: { checks.withLock { $0 += 1 }; return healthy.withLock { $0 } }
        )
        let watchdog = try #require(built)
        let running = Task { try await watchdog.run() }
        _ = try await receiver.waitForMessage(timeout: .seconds(30)) { $0 == "WATCHDOG=1" }
        healthy.withLock { $0 = false }
        let pingsWhileHealthy = receiver.messages().count
        let checksBefore = checks.withLock { $0 }
        let deadline = ContinuousClock.now + .seconds(30)
        while checks.withLock({ $0 }) < checksBefore + 3, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        running.cancel()
        try await running.value
        #expect(checks.withLock { $0 } >= checksBefore + 3, "health was still being checked")
        // At most the one ping already under way when health turned bad.
        #expect(receiver.messages().count <= pingsWhileHealthy + 1)
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
