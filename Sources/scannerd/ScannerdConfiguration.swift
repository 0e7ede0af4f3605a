#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ScanContract

/// Everything `scannerd run` was told.
struct ScannerdConfiguration: Sendable {
    var switchd: URL
    var scannerID: ScannerID
    /// Holds the spool, the last known switch and the lock that keeps a second scannerd out.
    var stateDirectory: String
    var radio: RadioChoice
    var simulation: SimulationSettings
    var hardware = HardwareRadioSettings()
    var batchSize: Int
    var batchAge: Duration
    /// The most bytes the spool holds (`--spool-max-bytes`).
    var spoolMaxBytes = Spool.Settings.defaultMaxBytes
    /// The most bytes a radio map may take (`--radiomap-max-bytes`).
    var radioMapMaxBytes = SwitchdAPI.defaultRadioMapLimit
    var events: EventLog.Destination
    var locate = Positioner.Settings()
    /// The scanner token sent to switchd (`--token-file`).
    var token: SwitchdToken? = nil
    /// How often the counters go to switchd.
    var countersInterval = CounterReporter.defaultInterval
    /// The listening role (`--listen`).
    var listen = ListenSettings()
    /// `--log-level`: the local setting switchd's `logLevel` overrides.
    var logLevel = Logger.Level.info

    /// `--listen`: beside survey and locate, forward per-window sightings of the tags switchd
    /// pushes with the switch, from the same BLE scan.
    struct ListenSettings: Sendable, Equatable {
        var enabled = false
        /// Length of a sighting window, seconds (`--listen-window-seconds`).
        var windowSeconds = 1.0
    }

    static let defaultSwitchd = URL(string: "http://127.0.0.1:8080")!
    static let defaultStateDirectory = "./state/scannerd"

    var lockPath: String { Self.lockPath(in: stateDirectory) }
    var switchPath: String { stateDirectory + "/switch.json" }
    var spoolDirectory: String { Self.spoolDirectory(in: stateDirectory) }

    static func lockPath(in stateDirectory: String) -> String { stateDirectory + "/lock" }
    static func spoolDirectory(in stateDirectory: String) -> String { stateDirectory + "/spool" }
    var radioMapPath: String { stateDirectory + "/radiomap.json" }
}
