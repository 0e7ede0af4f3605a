import DaemonSupport
import Foundation
import ScanContract
import Testing
@testable import scannerd

/// What scannerd tells switchd of its health with its counters (docs/fleet-health.md): its
/// version, the time it made the report, and each adapter it uses, down from a loss until it
/// recovers, with its own counts beside the totals.
@Suite("Radio health in the counter report")
struct RadioHealthReportTests {
    @Test func eachAdapterIsReportedWithItsStateAndCounts() throws {
        let radio = RadioCounters()
        radio.register("hci0", kind: .ble)
        radio.register("wlan0", kind: .wifi)
        radio.register("hci0", kind: .ble)
        radio.lost("hci0")
        radio.recovered("hci0")
        radio.lost("hci0")
        radio.lost("wlan0")
        radio.recovered("wlan0")
        let sent = Date(timeIntervalSince1970: 1_790_000_000)
        let report = ScannerdCounters(radio: radio).snapshot(spoolDepth: 1, now: sent)
        #expect(report.radios == [
            RadioHealth(adapter: "hci0", kind: .ble, state: .down, failures: 2, recoveries: 1),
            RadioHealth(adapter: "wlan0", kind: .wifi, state: .up, failures: 1, recoveries: 1),
        ])
        #expect(report.radioRecoveries == 2 && radio.snapshot.radioFailures == 3, "the totals count every adapter")
        #expect(report.version == FloorscanVersion.current && report.sentAt == sent)
        try report.validate()
    }

    @Test func theSimulatedRadioReportsNoAdapter() {
        #expect(ScannerdCounters().snapshot(spoolDepth: 0).radios == [])
    }
}
