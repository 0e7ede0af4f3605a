import DaemonSupport
import Logging
import ScanContract
import Synchronization

/// The settings scannerd runs with: its local ones (command line and TOML) overridden by those
/// switchd sends with the switch (``ScanSwitch/settings``), applied without a restart. The parts
/// that use a setting read it here when they need it: the BLE scan when it starts
/// (``HCIBLEScanner``; the scan session restarts it), the Wi-Fi scan loop before each scan, the
/// positioner every cycle, the watcher when it hands on the watched list, the log handler.
///
/// A setting this version does not know, or cannot apply while running, is kept out and
/// reported with why (``Applied/unapplied``): in the counter report and on the event log,
/// never dropped silently. No settings from switchd (none set, or switchd never answered since
/// the start): the local ones.
final class LiveSettings: Sendable {
    /// What `scannerd run` was told.
    struct Local: Sendable, Equatable {
        var ble = HCIScanSettings()
        /// Seconds from one Wi-Fi scan's start to the next; 0: back to back.
        var wifiScanPeriodS = 0.0
        var locateWindowMs = 2_000.0
        var listen = false
        var listenWindowS = 1.0
        var logLevel = Logger.Level.info
    }

    /// What is in effect now.
    struct Applied: Sendable, Equatable {
        var ble: HCIScanSettings
        var wifiScanPeriodS: Double
        var locateWindowMs: Double
        var listen: Bool
        var listenWindowS: Double
        var logLevel: Logger.Level
        /// The switchd settings revision applied; nil: none yet.
        var revision: Int?
        /// Each setting from switchd not applied, with why.
        var unapplied: [String: String] = [:]

        init(_ local: Local) {
            ble = local.ble
            wifiScanPeriodS = local.wifiScanPeriodS
            locateWindowMs = local.locateWindowMs
            listen = local.listen
            listenWindowS = local.listenWindowS
            logLevel = local.logLevel
        }

        /// Every setting in effect, as switchd names them.
        var settings: ScannerSettings {
            ScannerSettings(
                bleScan: ble.scanType.rawValue, bleIntervalMs: ble.intervalMilliseconds, bleWindowMs: ble.windowMilliseconds,
                wifiScanPeriodS: wifiScanPeriodS, locateWindowMs: locateWindowMs, listen: listen, listenWindowS: listenWindowS,
                logLevel: logLevel.rawValue
            )
        }
    }

    let local: Local
    /// Whether scannerd started with the listening role (`--listen`): it is built at the start.
    let listenRoleBuilt: Bool
    /// Whether the BLE scan is shared with the listening role (``BLEFanOut``): it runs for as
    /// long as scannerd does, so new BLE timing cannot reach it.
    let bleShared: Bool
    /// Whether changing the log level changes the process's (``DaemonLogging/level``); tests
    /// leave the process's alone.
    let setsProcessLogLevel: Bool
    private let state: Mutex<Applied>

    init(local: Local, listenRoleBuilt: Bool, bleShared: Bool, setsProcessLogLevel: Bool = true) {
        self.local = local
        self.listenRoleBuilt = listenRoleBuilt
        self.bleShared = bleShared
        self.setsProcessLogLevel = setsProcessLogLevel
        state = Mutex(Applied(local))
    }

    var applied: Applied { state.withLock { $0 } }
    var ble: HCIScanSettings { applied.ble }
    var wifiScanPeriod: Duration { .milliseconds(Int64((applied.wifiScanPeriodS * 1000).rounded())) }
    var locateWindow: Duration { .milliseconds(Int64(applied.locateWindowMs.rounded())) }
    var listening: Bool { applied.listen }

    /// What applying a revision changed.
    struct Change: Sendable, Equatable {
        /// The BLE scan must start again for its new type, interval or window.
        var ble = false
        /// The listening role was turned on or off.
        var listen = false
        var any = false
    }

    /// Applies `requested` (nil: back to the local settings) as `revision`, key by key over the
    /// local settings; returns what changed.
    @discardableResult
    func apply(_ requested: ScannerSettings?, revision: Int?) -> Change {
        let requested = requested ?? ScannerSettings()
        var next = Applied(local)
        next.revision = revision
        for key in requested.unknownKeys {
            next.unapplied[key] = "not a setting scannerd \(FloorscanVersion.current) knows"
        }
        applyBLE(requested, to: &next)
        if let period = requested.wifiScanPeriodS {
            if ScannerSettings.wifiScanPeriodRange.contains(period) { next.wifiScanPeriodS = period } else { next.unapplied["wifiScanPeriodS"] = "out of range" }
        }
        if let window = requested.locateWindowMs {
            if ScannerSettings.locateWindowRange.contains(window) { next.locateWindowMs = window } else { next.unapplied["locateWindowMs"] = "out of range" }
        }
        if let listen = requested.listen {
            if listen && !listenRoleBuilt {
                next.unapplied["listen"] = "the listening role is built at the start: start scannerd with --listen (listen = true in its TOML)"
            } else {
                next.listen = listen
            }
        }
        if let window = requested.listenWindowS, window != local.listenWindowS {
            next.unapplied["listenWindowS"] = "the sighting window is fixed while scannerd runs: --listen-window-seconds applies at its next start"
        }
        if let level = requested.logLevel {
            if let parsed = Logger.Level(rawValue: level) { next.logLevel = parsed } else { next.unapplied["logLevel"] = "not a log level" }
        }
        let previous = state.withLock { state in
            defer { state = next }
            return state
        }
        if setsProcessLogLevel, next.logLevel != previous.logLevel { DaemonLogging.level = next.logLevel }
        return Change(
            ble: next.ble != previous.ble, listen: next.listen != previous.listen,
            any: next != previous
        )
    }

    private func applyBLE(_ requested: ScannerSettings, to next: inout Applied) {
        let keys = [("bleScan", requested.bleScan != nil), ("bleIntervalMs", requested.bleIntervalMs != nil), ("bleWindowMs", requested.bleWindowMs != nil)]
            .filter(\.1).map(\.0)
        guard !keys.isEmpty else { return }
        var ble = local.ble
        if let type = requested.bleScan {
            guard let parsed = HCIScanSettings.ScanType(rawValue: type) else {
                next.unapplied["bleScan"] = "not a BLE scan type"
                return
            }
            ble.scanType = parsed
        }
        ble.intervalMilliseconds = requested.bleIntervalMs ?? ble.intervalMilliseconds
        ble.windowMilliseconds = requested.bleWindowMs ?? ble.windowMilliseconds
        if let problem = ble.problem {
            for key in keys { next.unapplied[key] = "with the local BLE settings: \(problem)" }
        } else if bleShared, ble != local.ble {
            for key in keys {
                next.unapplied[key] = "the BLE scan is shared with the listening role and runs for as long as scannerd: it applies at the next start"
            }
        } else {
            next.ble = ble
        }
    }
}
