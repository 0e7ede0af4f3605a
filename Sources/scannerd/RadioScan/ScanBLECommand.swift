import ArgumentParser
import DaemonSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ScanContract

/// `scannerd scan ble`: scans for `--seconds`, prints one ``AdvertisementLine`` per advertisement,
/// then disables scanning and exits 0. A controller lost meanwhile is recovered ("radio recovered"
/// on stderr); one that cannot be armed at the start is an error (exit 1).
struct ScanBLECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ble",
        abstract: "Scan BLE advertisements through a raw HCI socket for a while; one JSON line per advertisement."
    )

    @Option(help: "Bluetooth controller.")
    var device = "hci0"

    @Option(help: "How long to scan, seconds.")
    var seconds = 10

    @OptionGroup(title: "BLE scanning")
    var ble: BLEScanOptions

    @Flag(help: "Use the legacy LE scan commands even when the controller has the extended ones.")
    var legacy = false

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be more than 0, got \(seconds)") }
    }

    func run() async throws {
        let logger = logging.bootstrap()
        let counters = RadioCounters()
        let scanner = HCIBLEScanner(
            device: device, settings: ble.settings(legacyOnly: legacy), counters: counters,
            events: .disabled(logger: logger), logger: logger
        )
        let (stream, stop) = scanner.heardAdvertisements()
        let duration = Duration.seconds(seconds)
        let timer = Task {
            do {
                try await Task.sleep(for: duration)
            } catch {
                return // The scan ended first.
            }
            stop.stop()
        }
        defer { timer.cancel() }
        let encoder = JSONCoding.encoder()
        // The stream finishes once scanning is disabled and the socket closed.
        for try await heard in stream {
            try printJSONLine(AdvertisementLine(time: heard.time, advertisement: heard.advertisement, frames: heard.frames), encoder: encoder)
        }
        let counts = counters.snapshot
        logger.info("BLE scan done", metadata: [
            "device": "\(device)", "advertisements": "\(counts.advertisements)", "malformedReports": "\(counts.malformedReports)",
            "radioFailures": "\(counts.radioFailures)", "radioRecoveries": "\(counts.radioRecoveries)",
        ])
    }
}
