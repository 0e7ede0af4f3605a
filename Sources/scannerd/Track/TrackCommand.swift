import ArgumentParser
import DaemonSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ScanContract

/// `scannerd track`: a fixed scanner's listening role. Reads the watched tags from switchd, scans
/// BLE through a raw HCI socket, and posts per-window sightings of watched tags only
/// (``TrackForwarder``) until the process is stopped. Nothing is spooled: sightings are a live
/// view, and a window switchd does not take is dropped.
struct TrackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Forward per-window sightings of the tags switchd tracks (a fixed scanner); runs until stopped."
    )

    @Option(help: "switchd's base URL. (default: http://127.0.0.1:8080)", transform: parseURL)
    var switchd: URL = ScannerdConfiguration.defaultSwitchd

    @Option(name: .customLong("scanner-id"), help: "This scanner's ID on switchd, placed there as a fixed scanner. (default: default)", transform: parseScannerID)
    var scannerID: ScannerID = .default

    @Option(name: .customLong("token-file"), help: "File holding the scanner bearer token for switchd.")
    var tokenFile: String?

    @Option(help: "Bluetooth controller.")
    var device = "hci0"

    @Option(name: .customLong("window-seconds"), help: "Length of a sighting window, seconds.")
    var windowSeconds = 1.0

    @OptionGroup(title: "BLE scanning")
    var ble: BLEScanOptions

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard windowSeconds > 0, windowSeconds <= SightingBatch.maxWindowSeconds else {
            throw ValidationError("--window-seconds must be more than 0 and at most \(Int(SightingBatch.maxWindowSeconds)), got \(windowSeconds)")
        }
    }

    func run() async throws {
        let logger = logging.bootstrap()
        let api = SwitchdAPI(baseURL: switchd, client: NIOHTTPClient(), token: try tokenFile.map(SwitchdToken.read(from:)))
        let scanner = HCIBLEScanner(
            device: device, settings: ble.settings(legacyOnly: false), counters: RadioCounters(), events: .disabled(logger: logger), logger: logger
        )
        let (stream, _) = scanner.heardAdvertisements()
        var forwarder = TrackForwarder(api: api, scannerID: scannerID, logger: logger)
        forwarder.windowLength = windowSeconds
        let stored = try await forwarder.run(stream)
        logger.info("Track mode ended", metadata: ["sightingsStored": "\(stored)"])
    }
}
