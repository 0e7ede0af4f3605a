import CoreMetrics
import Foundation
import Metrics
import Prometheus
import ScanContract
import Synchronization

/// Turns the cumulative counts scanners report (``ScannerCounters``) into Prometheus counters per
/// scanner, `scannerd_<count>_total{scanner="…"}`, that only ever grow: a report adds what grew
/// since the last report of the same run; a report of a new run (scannerd restarted) adds all of
/// its counts. The spool depth and the time of the last report are gauges.
///
/// Reports live in memory: after a switchd restart each scanner's next report counts in full.
final class ScannerCounterExport: Sendable {
    private let factory: any MetricsFactory
    /// The highest counts seen of each scanner's current run.
    private let latest = Mutex<[ScannerID: ScannerCounters]>([:])

    /// The counts exported as counters, with their metric names.
    static var counters: [(count: WritableKeyPath<ScannerCounters, Int>, metric: String)] {
        [
            (\.advertisements, "scannerd_advertisements_total"),
            (\.wifiScans, "scannerd_wifi_scans_total"),
            (\.parseErrors, "scannerd_parse_errors_total"),
            (\.radioRecoveries, "scannerd_radio_recoveries_total"),
            (\.uploadRetries, "scannerd_upload_retries_total"),
            (\.droppedReadings, "scannerd_dropped_readings_total"),
        ]
    }

    static let spoolDepthGauge = "scannerd_spool_depth_batches"
    static let lastReportGauge = "scannerd_last_report_timestamp_seconds"

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// Adds one validated report of `scanner`, received at `now`.
    func record(_ report: ScannerCounters, from scanner: ScannerID, at now: Date) {
        let dimensions = [("scanner", scanner.rawValue)]
        latest.withLock { latest in
            let previous = latest[scanner].flatMap { $0.run == report.run ? $0 : nil }
            var kept = report
            for (count, metric) in Self.counters {
                let seen = previous?[keyPath: count] ?? 0
                let grown = report[keyPath: count] - seen
                if grown > 0 {
                    CoreMetrics.Counter(label: metric, dimensions: dimensions, factory: factory).increment(by: Int64(grown))
                }
                kept[keyPath: count] = max(report[keyPath: count], seen)
            }
            latest[scanner] = kept
        }
        CoreMetrics.Gauge(label: Self.spoolDepthGauge, dimensions: dimensions, factory: factory).record(report.spoolDepth)
        CoreMetrics.Gauge(label: Self.lastReportGauge, dimensions: dimensions, factory: factory).record(now.timeIntervalSince1970)
    }

    /// Drops a deleted scanner's series from the export, and what was seen of its run: a scanner
    /// registered again under the ID starts counting afresh.
    func forget(_ scanner: ScannerID) {
        let dimensions = [("scanner", scanner.rawValue)]
        latest.withLock { latest in
            latest[scanner] = nil
            for (_, metric) in Self.counters {
                CoreMetrics.Counter(label: metric, dimensions: dimensions, factory: factory).destroy()
            }
        }
        for gauge in [Self.spoolDepthGauge, Self.lastReportGauge] {
            CoreMetrics.Gauge(label: gauge, dimensions: dimensions, factory: factory).destroy()
        }
    }
}
