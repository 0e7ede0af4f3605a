import ArgumentParser
import DaemonSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ScanContract

/// `scannerd scan wifi`: `--count` trigger-wait-dump scans, one ``ScannedBSSLine`` per BSS each,
/// then exit 0. An interface that does not exist or is not Wi-Fi, or a scan that fails, is an
/// error (exit 1).
struct ScanWiFiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wifi",
        abstract: "Scan Wi-Fi through nl80211 (trigger, wait, dump); one JSON line per BSS of each scan."
    )

    @Option(help: "Wi-Fi interface (default: the first in /sys/class/net with phy80211).")
    var interface: String?

    @Option(help: "Number of scans, one after the other.")
    var count = 1

    @OptionGroup(title: "Wi-Fi scanning")
    var wifi: WiFiScanOptions

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be more than 0, got \(count)") }
    }

    func run() async throws {
        let logger = logging.bootstrap()
        guard let name = interface ?? WiFiInterface.wirelessNames().first else { throw NL80211Error.noWirelessInterface }
        _ = try WiFiInterface.named(name) // A clear error before any netlink.
        let counters = RadioCounters()
        let scanner = NL80211WiFiScanner(
            interface: name, settings: wifi.settings, counters: counters, events: .disabled(logger: logger), logger: logger
        )
        let encoder = JSONCoding.encoder()
        for scan in 0..<count {
            let outcome = try await scanner.scan()
            for bss in outcome.bsses {
                try printJSONLine(ScannedBSSLine(scan: scan, bss: BSSLine(bss)), encoder: encoder)
            }
            logger.info("Wi-Fi scan done", metadata: [
                "interface": "\(name)", "scan": "\(scan)", "how": "\(outcome.kind.rawValue)", "bss": "\(outcome.bsses.count)",
                "stale": "\(outcome.stale)", "malformed": "\(outcome.malformed.count)", "resyncs": "\(outcome.resyncs)",
            ])
        }
    }
}

/// A ``BSSLine`` with the number of the scan it came from (0, 1, …): `{"scan": 0, "bssid": …}`.
struct ScannedBSSLine: Encodable, Equatable {
    var scan: Int
    var bss: BSSLine

    private enum CodingKeys: String, CodingKey { case scan }

    func encode(to encoder: any Encoder) throws {
        try bss.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scan, forKey: .scan)
    }
}
