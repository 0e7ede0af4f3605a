import Foundation
import CoreMetrics
import Metrics
import Prometheus

/// switchd's metrics: swift-metrics handles backed by one Prometheus registry per application,
/// rendered as Prometheus text by `GET /metrics`. Each application builds its own, so tests that
/// run several in one process never see each other's counts.
final class SwitchdMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    /// Makes every metric; records into `registry`.
    let factory: any MetricsFactory
    /// Readings stored by `POST /v1/measurements` (duplicates and discarded batches add nothing).
    let measurementsStored: CoreMetrics.Counter
    /// Positions stored by `POST /v1/positions`.
    let positionsStored: CoreMetrics.Counter
    /// The SQLite file's size, set at each scrape.
    let databaseSize: CoreMetrics.Gauge
    /// What scanners report of themselves.
    let scanners: ScannerCounterExport
    /// Requests refused 429 because their address failed to authenticate too often.
    let authThrottled: CoreMetrics.Counter
    /// Readers' streams ended so that scanners' requests get through a full server.
    let streamsEvicted: CoreMetrics.Counter
    /// How many different scannerd versions the scanners reported (``ScannerVersionWatch``):
    /// more than 1 is a fleet half upgraded.
    let scannerVersions: CoreMetrics.Gauge

    /// - Parameter wrap: sees every metric on its way to the registry; the wrapper it returns must
    ///   hand each change on, or `GET /metrics` misses it. Tests wrap to wait for a change.
    init(
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        wrap: (any MetricsFactory) -> any MetricsFactory = { $0 }
    ) {
        self.registry = registry
        let factory = wrap(PrometheusMetricsFactory(registry: registry))
        self.factory = factory
        measurementsStored = CoreMetrics.Counter(label: "switchd_measurements_stored_total", factory: factory)
        positionsStored = CoreMetrics.Counter(label: "switchd_positions_stored_total", factory: factory)
        databaseSize = CoreMetrics.Gauge(label: "switchd_database_size_bytes", factory: factory)
        scanners = ScannerCounterExport(factory: factory)
        authThrottled = CoreMetrics.Counter(label: "switchd_auth_throttled_total", factory: factory)
        streamsEvicted = CoreMetrics.Counter(label: "switchd_streams_evicted_total", factory: factory)
        scannerVersions = CoreMetrics.Gauge(label: "switchd_scanner_versions", factory: factory)
    }

    /// Counts one failed authentication: `reason` is `malformed` or `unknown_token`.
    func recordAuthFailure(reason: String) {
        CoreMetrics.Counter(label: "switchd_auth_failures_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// Counts one answered request under its route pattern (`/v1/scanners/{id}`, never the raw
    /// path, so the label set stays small) and records how long the answer took.
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        CoreMetrics.Counter(
            label: "switchd_http_requests_total",
            dimensions: [("route", route), ("method", method), ("status", String(status))],
            factory: factory
        ).increment()
        CoreMetrics.Timer(label: "switchd_http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory)
            .record(duration: duration)
    }

    /// The number of clients following the live stream `feed` (`measurements`, `positions`,
    /// `switch`): increment when one starts, decrement when it ends.
    func subscribers(feed: String) -> CoreMetrics.Meter {
        CoreMetrics.Meter(label: "switchd_feed_subscribers", dimensions: [("feed", feed)], factory: factory)
    }

    /// Every metric as Prometheus text exposition format 0.0.4.
    func render() -> [UInt8] {
        registry.emitToBuffer()
    }
}
