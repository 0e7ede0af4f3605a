import Logging
import Synchronization

/// Warns when the scanners run different scannerd versions: the `switchd_scanner_versions`
/// gauge holds how many there are, and the log says so once each time the fleet goes from one
/// version to several (and once when it is back to one). `GET /v1/scanners` shows it per scanner
/// (`versionMismatch`).
final class ScannerVersionWatch: Sendable {
    private let metrics: SwitchdMetrics
    private let logger: Logger
    /// Whether the last count seen was more than one.
    private let mixed = Mutex(false)

    init(metrics: SwitchdMetrics, logger: Logger) {
        self.metrics = metrics
        self.logger = logger
    }

    /// Records `count`, the different versions reported now; `reporter` and `version` name the
    /// scanner whose report this follows, for the log.
    func saw(_ count: Int, after reporter: String, reported version: String?) {
        metrics.scannerVersions.record(count)
        let isMixed = count > 1
        let changed = mixed.withLock { mixed in
            defer { mixed = isMixed }
            return mixed != isMixed
        }
        guard changed else { return }
        if isMixed {
            logger.warning("Scanners run different scannerd versions: upgrade them all (GET /v1/scanners shows each one's)", metadata: [
                "versions": "\(count)", "scanner": "\(reporter)", "version": "\(version ?? "unknown")",
            ])
        } else {
            logger.info("Every scanner that reports a version runs the same one again")
        }
    }
}
