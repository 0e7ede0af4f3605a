#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the real radio sources have done since scannerd started, for logs and metrics. Created
/// once and shared by the sources; every count only grows.
final class RadioCounters: @unchecked Sendable {
    /// A copy of the counts at one moment.
    struct Snapshot: Sendable, Equatable {
        /// LE advertisements decoded (every report of every advertising event, beacon or not).
        var advertisements = 0
        /// HCI events or advertising data that broke their format: counted and skipped.
        var malformedReports = 0
        /// nl80211 trigger-wait-dump scans (or dumps, without CAP_NET_ADMIN) completed.
        var wifiScans = 0
        /// Times a radio was lost (adapter down or gone, read errors).
        var radioFailures = 0
        /// Times a lost radio was reopened and re-armed by itself.
        var radioRecoveries = 0
        /// Times the nl80211 socket overran (ENOBUFS) and was resynchronised.
        var netlinkResyncs = 0
    }

    private let lock = Lock()
    private var counts = Snapshot()

    var snapshot: Snapshot { lock.withLock { counts } }

    func add(_ keyPath: WritableKeyPath<Snapshot, Int>, _ amount: Int = 1) {
        lock.withLock { counts[keyPath: keyPath] += amount }
    }
}
