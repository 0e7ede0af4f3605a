#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

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
    /// Each adapter in use, in the order registered, with its own losses and recoveries.
    private var adapters: [RadioHealth] = []

    var snapshot: Snapshot { lock.withLock { counts } }

    func add(_ keyPath: WritableKeyPath<Snapshot, Int>, _ amount: Int = 1) {
        lock.withLock { counts[keyPath: keyPath] += amount }
    }

    /// Names an adapter in use, up until it is lost.
    func register(_ adapter: String, kind: RadioKind) {
        lock.withLock {
            guard !adapters.contains(where: { $0.adapter == adapter }) else { return }
            adapters.append(RadioHealth(adapter: adapter, kind: kind, state: .up, failures: 0, recoveries: 0))
        }
    }

    /// `adapter` was lost: counted in the totals (`radioFailures`) and as its own, down until recovered.
    func lost(_ adapter: String) {
        count(adapter, total: \.radioFailures, own: \.failures, now: .down)
    }

    /// `adapter` was brought back: counted in the totals (`radioRecoveries`) and as its own, up.
    func recovered(_ adapter: String) {
        count(adapter, total: \.radioRecoveries, own: \.recoveries, now: .up)
    }

    private func count(_ adapter: String, total: WritableKeyPath<Snapshot, Int>, own: WritableKeyPath<RadioHealth, Int>, now state: RadioState) {
        lock.withLock {
            counts[keyPath: total] += 1
            guard let index = adapters.firstIndex(where: { $0.adapter == adapter }) else { return }
            adapters[index][keyPath: own] += 1
            adapters[index].state = state
        }
    }

    /// Each registered adapter's state and counts, as scannerd reports them to switchd.
    var radios: [RadioHealth] { lock.withLock { adapters } }
}
