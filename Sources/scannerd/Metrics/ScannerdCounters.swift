#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DaemonSupport
import ScanContract
import Synchronization

/// What this scannerd run has counted, shared by the parts that count: the scan session
/// (advertisements, Wi-Fi scans), the real radios (parse errors, recoveries, through
/// ``RadioCounters``), the uploader
/// (retries) and the spool (readings dropped). Created once per run; ``CounterReporter`` sends a snapshot to switchd.
final class ScannerdCounters: Sendable {
    /// Tells switchd that counts start again from zero (see ``ScannerCounters/run``).
    let run = UUID()
    let advertisements = Atomic<Int>(0)
    let wifiScans = Atomic<Int>(0)
    let uploadRetries = Atomic<Int>(0)
    /// Readings lost to a full spool or a failing disk (see ``SpoolBudget``).
    let droppedReadings = Atomic<Int>(0)
    /// `write()`s to the spool's journals: one per group of readings appended together (readings
    /// of one batch), which is what an SD card wears by. Local: `scannerd bench` reports it.
    let journalWrites = Atomic<Int>(0)
    /// The real radios' own counts: malformed reports (parse errors) and recoveries.
    let radio: RadioCounters

    init(radio: RadioCounters = RadioCounters()) {
        self.radio = radio
    }

    /// The counts now, with the spool's depth measured by the caller, this scannerd's version,
    /// its radios, and `now` (scannerd's clock, for switchd to compare with its own).
    func snapshot(spoolDepth: Int, now: Date = Date()) -> ScannerCounters {
        ScannerCounters(
            run: run,
            advertisements: advertisements.load(ordering: .relaxed),
            wifiScans: wifiScans.load(ordering: .relaxed),
            parseErrors: radio.snapshot.malformedReports,
            radioRecoveries: radio.snapshot.radioRecoveries,
            uploadRetries: uploadRetries.load(ordering: .relaxed),
            droppedReadings: droppedReadings.load(ordering: .relaxed),
            spoolDepth: spoolDepth,
            version: FloorscanVersion.current,
            radios: radio.radios,
            sentAt: now
        )
    }
}

extension Atomic where Value == Int {
    /// Counts one more.
    func increment() {
        add(1, ordering: .relaxed)
    }
}
