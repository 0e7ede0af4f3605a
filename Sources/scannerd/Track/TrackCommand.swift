import ArgumentParser
import DaemonSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Positioning
import ScanContract

/// `scannerd track`: a fixed scanner's listening role. Reads the watched list from switchd (its
/// switch's: the tags, and a placed scanner's beacons), scans BLE (a raw HCI socket, or the
/// simulated floor), and posts per-window sightings of what is watched only (``TrackForwarder``) until the process is stopped (SIGTERM or SIGINT: it exits 0). Nothing is spooled: sightings are a
/// live view, and a window switchd does not take is dropped.
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

    /// Hardware by default: a fixed scanner that silently fell back to the simulation would
    /// report a floor that is not there.
    @Option(help: "Radio source: hardware (fails without a Bluetooth controller), simulated, or auto (the controller when there is one, else simulated).")
    var radio: RadioChoice = .hardware

    @Option(help: "Bluetooth controller (default: the first the kernel lists).")
    var device: String?

    @Option(name: .customLong("window-seconds"), help: "Length of a sighting window, seconds.")
    var windowSeconds = 1.0

    @OptionGroup(title: "BLE scanning")
    var ble: BLEScanOptions

    @OptionGroup(title: "Simulated radio")
    var simulation: TrackSimulationOptions

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard windowSeconds > 0, windowSeconds <= SightingBatch.maxWindowSeconds else {
            throw ValidationError("--window-seconds must be more than 0 and at most \(Int(SightingBatch.maxWindowSeconds)), got \(windowSeconds)")
        }
    }

    func run() async throws {
        let logger = logging.bootstrap()
        let api = SwitchdAPI(baseURL: switchd, client: CurlHTTPClient(), token: try tokenFile.map(SwitchdToken.read(from:)))
        var forwarder = TrackForwarder(api: api, scannerID: scannerID, logger: logger)
        forwarder.windowLength = windowSeconds
        let decision = try RadioDecision.decide(radio, adapters: .detect(), hciDevice: device)
        switch decision.source {
        case .simulated:
            let settings = simulation.settings
            logger.info("radio source", metadata: [
                "source": "simulated", "why": "\(decision.reason)", "seed": "\(settings.seed)", "standing": "\(settings.trajectoryText)",
                "tags": "\(settings.tagTrajectories.count)",
            ])
            let radio = SimulatedRadio(floor: settings.floor, settings: settings, surveyPositions: nil, logger: logger)
            guard let ble = radio.ble else { throw ValidationError("the simulated radio has no BLE receiver") }
            let hearings = ble.advertisements().map { $0.compactMap(TrackHearing.init) }
            try await TrackService(forwarder: forwarder, hearings: hearings, logger: logger).runUntilStopped()
        case .hardware(let bluetooth?, _):
            logger.info("radio source", metadata: ["source": "hardware", "why": "\(decision.reason)", "bluetooth": "\(bluetooth)"])
            let scanner = HCIBLEScanner(
                device: bluetooth, settings: ble.settings(legacyOnly: false), counters: RadioCounters(), events: .disabled(logger: logger), logger: logger
            )
            let (stream, _) = scanner.heardAdvertisements()
            let hearings = stream.map { TrackHearing($0).map { [$0] } ?? [] }
            try await TrackService(forwarder: forwarder, hearings: hearings, logger: logger).runUntilStopped()
        case .hardware(nil, _):
            throw ValidationError("track mode needs a Bluetooth controller; found none (use --radio simulated)")
        }
    }
}
