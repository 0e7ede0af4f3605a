import Foundation
import Scan
import Synchronization

/// What this scannerd run has counted, shared by the parts that count: the scan session
/// (advertisements, Wi-Fi scans), the radios (parse errors, recoveries) and the uploader
/// (retries). Created once per run; ``CounterReporter`` sends a snapshot to switchd.
final class ScannerdCounters: Sendable {
    /// Tells switchd that counts start again from zero (see ``ScannerCounters/run``).
    let run = UUID()
    let advertisements = Atomic<Int>(0)
    let wifiScans = Atomic<Int>(0)
    let parseErrors = Atomic<Int>(0)
    let radioRecoveries = Atomic<Int>(0)
    let uploadRetries = Atomic<Int>(0)

    init() {}

    /// The counts now, with the spool's depth measured by the caller.
    func snapshot(spoolDepth: Int) -> ScannerCounters {
        ScannerCounters(
            run: run,
            advertisements: advertisements.load(ordering: .relaxed),
            wifiScans: wifiScans.load(ordering: .relaxed),
            parseErrors: parseErrors.load(ordering: .relaxed),
            radioRecoveries: radioRecoveries.load(ordering: .relaxed),
            uploadRetries: uploadRetries.load(ordering: .relaxed),
            spoolDepth: spoolDepth
        )
    }
}

extension Atomic where Value == Int {
    /// Counts one more.
    func increment() {
        add(1, ordering: .relaxed)
    }
}
