#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Pings systemd's watchdog (`WATCHDOG=1`) at half the `WatchdogSec=` interval, but only while
/// the daemon says it is healthy: when the check fails or hangs, the pings stop and systemd
/// restarts the service once the interval has passed.
///
/// Built only when systemd asked for a watchdog (see ``init(notifier:environment:logger:isHealthy:)``);
/// runs until graceful shutdown or cancellation.
public struct WatchdogService: DaemonService, CustomStringConvertible {
    public let interval: Duration
    let notifier: SystemdNotifier
    let logger: Logger
    let clock: any Clock<Duration>
    let isHealthy: @Sendable () async -> Bool

    /// How the service group names it in its logs.
    public var description: String { "WatchdogService" }

    /// Nil unless `WATCHDOG_USEC` is a positive number of microseconds, `WATCHDOG_PID` (when set)
    /// is this process, and the notifier sends somewhere.
    ///
    /// - Parameters:
    ///   - clock: the interval between pings runs on it.
    ///   - isHealthy: asked before every ping; a check that does not return stops the pings.
    public init?(
        notifier: SystemdNotifier,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger,
        clock: any Clock<Duration> = ContinuousClock(),
        isHealthy: @escaping @Sendable () async -> Bool
    ) {
        guard notifier.isEnabled, let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 else {
            return nil
        }
        if let pid = environment["WATCHDOG_PID"], pid != String(getpid()) {
            return nil
        }
        self.interval = .microseconds(microseconds) / 2
        self.notifier = notifier
        self.logger = logger
        self.clock = clock
        self.isHealthy = isHealthy
    }

    public func run() async throws {
        logger.info("systemd watchdog on", metadata: ["pingEvery": "\(interval)"])
        do {
            try await GracefulShutdown.cancelling { [self] in
                while true {
                    await pingIfHealthy()
                    try await clock.sleep(for: interval)
                }
            }
        } catch is CancellationError {
            logger.debug("systemd watchdog off")
        }
    }

    /// A failed send is logged, not thrown: systemd notices missing pings by itself.
    private func pingIfHealthy() async {
        guard await isHealthy() else {
            logger.warning("unhealthy; not pinging the systemd watchdog")
            return
        }
        do {
            try notifier.notify(.watchdog)
        } catch {
            logger.error("could not ping the systemd watchdog", metadata: ["error": "\(error)"])
        }
    }
}
