import Logging
import ScanContract
import DaemonSupport

/// Sends this run's counts to switchd every `interval` (`PUT /v1/scanners/{id}/counters`), where
/// `GET /metrics` exports them per scanner: one place to scrape for the whole fleet, and no
/// listening port on the Pi.
///
/// A report that fails is logged (once, until one succeeds again) and the next one carries the
/// counts on; the counts are cumulative, so nothing is lost but the time in between.
struct CounterReporter: DaemonService, CustomStringConvertible {
    let counters: ScannerdCounters
    let spool: Spool
    let api: SwitchdAPI
    let scannerID: ScannerID
    let interval: Duration
    let logger: Logger
    /// The interval runs on this clock.
    var clock: any Clock<Duration> = ContinuousClock()
    /// The settings in effect, reported with the counts (the revision applied, those not
    /// applied with why, every one in effect); nil: none reported.
    var settings: LiveSettings?

    static let defaultInterval: Duration = .seconds(15)

    /// How the service group names it in its logs.
    var description: String { "CounterReporter" }

    func run() async {
        do {
            try await GracefulShutdown.cancelling { [self] in
                var failing = false
                while true {
                    try await clock.sleep(for: interval)
                    failing = await report(failing: failing)
                }
            }
        } catch {
            logger.debug("stopped reporting counters")
        }
    }

    /// Sends one report; returns whether it failed.
    func report(failing: Bool) async -> Bool {
        do {
            let depth = try spool.readyBatches().count
            var report = counters.snapshot(spoolDepth: depth)
            if let settings {
                let applied = settings.applied
                report.settingsRevision = applied.revision
                report.unappliedSettings = applied.unapplied
                report.appliedSettings = applied.settings
            }
            try await api.putCounters(report, of: scannerID)
            if failing { logger.info("reporting counters to switchd again") }
            return false
        } catch is CancellationError {
            return failing
        } catch {
            if !failing {
                logger.warning("could not report counters to switchd; trying again every interval", metadata: [
                    "error": "\(error)", "interval": "\(interval)",
                ])
            }
            return true
        }
    }
}
