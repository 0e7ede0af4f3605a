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

/// `scannerd run`: the daemon.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Follow the scan switch on switchd, scan, spool and upload measurements."
    )

    @OptionGroup var configFile: ConfigFileOption

    @Option(help: "switchd's base URL. (default: http://127.0.0.1:8080)", transform: parseURL)
    var switchd: URL = ScannerdConfiguration.defaultSwitchd

    @Option(name: .customLong("scanner-id"), help: "This scanner's ID on switchd. (default: default)", transform: parseScannerID)
    var scannerID: ScannerID = .default

    @Option(name: .customLong("state-dir"), help: "Directory for the spool and the last known switch.")
    var stateDirectory: String = ScannerdConfiguration.defaultStateDirectory

    @Option(help: "Radio source: auto (the machine's radios when it has any, else simulated), simulated, or hardware (fails without a radio).")
    var radio: RadioChoice = .auto

    @Option(name: .customLong("hci-device"), help: "Bluetooth controller to scan with (default: the first the kernel lists, usually hci0).")
    var hciDevice: String?

    @Option(name: .customLong("wifi-interface"), help: "Wi-Fi interface to scan with (default: the first in /sys/class/net with phy80211).")
    var wifiInterface: String?

    @OptionGroup(title: "BLE scanning")
    var ble: BLEScanOptions

    @OptionGroup(title: "Wi-Fi scanning")
    var wifi: WiFiScanOptions

    @Option(
        name: .customLong("sim-trajectory"),
        help: "Simulated scanner position: \"x,y\" (standing) or \"x,y;x,y;…@metresPerSecond\" (walking). Default: the floor's centre.",
        transform: parseTrajectory
    )
    var simTrajectory: Trajectory?

    @Flag(
        name: .customLong("sim-follow-survey"), inversion: .prefixedNo,
        help: "Stand the simulated scanner at the location the switch names."
    )
    var simFollowSurvey = true

    @Option(name: .customLong("sim-seed"), help: "Seed of the simulated radio noise (default: random, logged).")
    var simSeed: UInt64?

    @Option(name: .customLong("sim-advertising-hz"), help: "Advertisements per second of every simulated beacon (default: each beacon's own).")
    var simAdvertisingHz: Double?

    @OptionGroup(title: "Simulated tags")
    var simTags: SimulatedTagOptions

    @Option(name: .customLong("sim-wifi-scan-ms"), help: "Duration of one simulated Wi-Fi scan, milliseconds.")
    var simWiFiScanMs: Int = Int(SimulationSettings.defaultWiFiScanDuration / .milliseconds(1))

    @Option(name: .customLong("batch-size"), help: "Seal a batch when it holds this many measurements.")
    var batchSize: Int = Spool.Settings.defaultBatchSize

    @Option(name: .customLong("batch-age-ms"), help: "Seal a batch this many milliseconds after its first measurement.")
    var batchAgeMs: Int = Int(Spool.Settings.defaultBatchAge / .milliseconds(1))

    @Option(
        name: .customLong("spool-max-bytes"),
        help: "Most bytes the spool may hold; when full, the oldest locate-mode batches go first, then new readings (survey batches are never dropped)."
    )
    var spoolMaxBytes: Int = Spool.Settings.defaultMaxBytes

    @Option(name: .customLong("radiomap-max-bytes"), help: "In locate mode, the largest radio map scannerd accepts from switchd, bytes; a larger answer fails the download.")
    var radioMapMaxBytes: Int = SwitchdAPI.defaultRadioMapLimit

    @Option(name: .customLong("locate-ble-window-ms"), help: "In locate mode, BLE advertisements of this many last milliseconds count towards a position.")
    var locateBLEWindowMs: Int = Int(Positioner.Settings().bleWindow / .milliseconds(1))

    @Option(name: .customLong("radiomap-refresh-s"), help: "In locate mode, ask switchd for a newer radio map this often, seconds.")
    var radioMapRefreshS: Int = Int(Positioner.Settings().mapRefreshInterval / .seconds(1))

    @Option(name: .customLong("counters-interval-s"), help: "Report this scanner's counters to switchd (GET /metrics there) this often, seconds.")
    var countersIntervalS: Int = Int(CounterReporter.defaultInterval / .seconds(1))

    @Flag(
        name: .customLong("listen"), inversion: .prefixedNo,
        help: "The listening role (a fixed scanner): beside survey and locate, forward per-window sightings of the tags switchd pushes with the switch (every registered tag), from the same BLE scan."
    )
    var listen = false

    @Option(name: .customLong("listen-window-seconds"), help: "With --listen, the length of a sighting window, seconds.")
    var listenWindowSeconds = 1.0

    @Option(help: "Append JSON event lines to this file ('-' for standard output).")
    var events: String?

    @Option(
        name: .customLong("token-file"),
        help: "File holding the scanner bearer token for switchd (switchd token issue --role scanner --scanner-id <id>)."
    )
    var tokenFile: String?

    @Option(
        name: .customLong("ca-file"),
        help: "PEM file of the certificates to trust for an https:// switchd: the building's CA, or switchd's own self-signed certificate (a pin). Without it, the system's trust store."
    )
    var caFile: String?

    @Option(
        help: "For an https:// switchd whose certificate this Pi does not hold: trust only a server whose public key has this pin (sha256//…, shown by switchd with an enrolment code; scannerd enrol writes it). Not with --ca-file."
    )
    var pin: String?

    @OptionGroup var logging: LoggingOptions

    /// Room for a few full batches: less and the spool would drop readings before switchd could take them.
    static let minimumSpoolBytes = 1024 * 1024

    /// More advertisements per second than this is no longer a plausible beacon.
    static let maximumAdvertisingRate = 10_000.0

    func validate() throws {
        guard (1...MeasurementBatch.maxMeasurements).contains(batchSize) else {
            throw ArgumentParser.ValidationError("--batch-size must be between 1 and \(MeasurementBatch.maxMeasurements), got \(batchSize)")
        }
        guard batchAgeMs > 0 else {
            throw ArgumentParser.ValidationError("--batch-age-ms must be more than 0, got \(batchAgeMs)")
        }
        guard spoolMaxBytes >= Self.minimumSpoolBytes else {
            throw ArgumentParser.ValidationError("--spool-max-bytes must be at least \(Self.minimumSpoolBytes) (1 MiB), got \(spoolMaxBytes)")
        }
        guard radioMapMaxBytes >= HTTPRequest.smallAnswerLimit else {
            throw ArgumentParser.ValidationError("--radiomap-max-bytes must be at least \(HTTPRequest.smallAnswerLimit), got \(radioMapMaxBytes)")
        }
        guard (100...60_000).contains(locateBLEWindowMs) else {
            throw ArgumentParser.ValidationError("--locate-ble-window-ms must be between 100 and 60000, got \(locateBLEWindowMs)")
        }
        guard (1...86_400).contains(radioMapRefreshS) else {
            throw ArgumentParser.ValidationError("--radiomap-refresh-s must be between 1 and 86400, got \(radioMapRefreshS)")
        }
        guard (1...3_600).contains(countersIntervalS) else {
            throw ArgumentParser.ValidationError("--counters-interval-s must be between 1 and 3600, got \(countersIntervalS)")
        }
        guard simWiFiScanMs > 0 else {
            throw ArgumentParser.ValidationError("--sim-wifi-scan-ms must be more than 0, got \(simWiFiScanMs)")
        }
        guard listenWindowSeconds > 0, listenWindowSeconds <= SightingBatch.maxWindowSeconds else {
            throw ArgumentParser.ValidationError(
                "--listen-window-seconds must be more than 0 and at most \(Int(SightingBatch.maxWindowSeconds)), got \(listenWindowSeconds)"
            )
        }
        if let simAdvertisingHz, !(simAdvertisingHz > 0 && simAdvertisingHz <= Self.maximumAdvertisingRate) {
            throw ArgumentParser.ValidationError("--sim-advertising-hz must be more than 0 and at most \(Int(Self.maximumAdvertisingRate)), got \(simAdvertisingHz)")
        }
    }

    var scannerdConfiguration: ScannerdConfiguration {
        ScannerdConfiguration(
            switchd: switchd, scannerID: scannerID, stateDirectory: stateDirectory, radio: radio,
            simulation: SimulationSettings(
                trajectory: simTrajectory ?? .standing(SimulationSettings.demoFloorCentre),
                seed: simSeed ?? UInt64.random(in: 0...UInt64.max), advertisingRate: simAdvertisingHz,
                wifiScanDuration: .milliseconds(simWiFiScanMs), followSurvey: simFollowSurvey, tagTrajectories: simTags.tags,
                tagStart: Date(timeIntervalSince1970: simTags.start), receiverGain: simTags.receiverGain
            ),
            hardware: HardwareRadioSettings(hciDevice: hciDevice, ble: ble.settings(), wifiInterface: wifiInterface, wifi: wifi.settings),
            batchSize: batchSize, batchAge: .milliseconds(batchAgeMs), spoolMaxBytes: spoolMaxBytes,
            radioMapMaxBytes: radioMapMaxBytes,
            events: events.map(EventLog.Destination.init(argument:)) ?? .none,
            locate: Positioner.Settings(bleWindow: .milliseconds(locateBLEWindowMs), mapRefreshInterval: .seconds(radioMapRefreshS)),
            countersInterval: .seconds(countersIntervalS),
            listen: ScannerdConfiguration.ListenSettings(enabled: listen, windowSeconds: listenWindowSeconds)
        )
    }

    func run() async throws {
        let logger = logging.bootstrap()
        var configuration = scannerdConfiguration
        configuration.logLevel = logging.logLevel
        configuration.token = try tokenFile.map(SwitchdToken.read(from:))
        if configuration.token == nil {
            logger.warning("No --token-file: switchd will refuse every request unless it needs no token")
        }
        // --ca-file and --pin together are refused here, at start, rather than in validate(), so
        // the shipped file with every setting switched on still parses (ShippedConfigTests).
        let http = try CurlHTTPClient.trusting(caFile: caFile, pin: pin)
        let scannerd = try Scannerd(configuration, http: http, logger: logger, systemd: try SystemdNotifier())
        try await scannerd.run()
    }
}
