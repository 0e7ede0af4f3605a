import ArgumentParser
import Logging

extension HCIScanSettings.ScanType: ExpressibleByArgument {}
extension WiFiScanSettings.ScanType: ExpressibleByArgument {}

/// How the BLE source scans: shared by `scannerd run` and `scannerd scan ble`.
struct BLEScanOptions: ParsableArguments {
    @Option(name: .customLong("ble-scan"), help: "BLE scan type: passive (listen only) or active (also ask for scan responses).")
    var scanType: HCIScanSettings.ScanType = .passive

    @Option(name: .customLong("ble-interval-ms"), help: "BLE scan interval, milliseconds.")
    var intervalMs = HCIScanSettings().intervalMilliseconds

    @Option(name: .customLong("ble-window-ms"), help: "BLE scan window, milliseconds (at most the interval; equal means always listening).")
    var windowMs = HCIScanSettings().windowMilliseconds

    func settings(legacyOnly: Bool = false) -> HCIScanSettings {
        HCIScanSettings(scanType: scanType, intervalMilliseconds: intervalMs, windowMilliseconds: windowMs, legacyOnly: legacyOnly)
    }

    func validate() throws {
        if let problem = settings().problem { throw ValidationError(problem) }
    }
}

/// How the Wi-Fi source scans: shared by `scannerd run` and `scannerd scan wifi`.
struct WiFiScanOptions: ParsableArguments {
    @Option(name: .customLong("wifi-scan"), help: "Wi-Fi scan type: active (probe requests) or passive (beacons only).")
    var scanType: WiFiScanSettings.ScanType = .active

    @Flag(name: .customLong("wifi-flush"), help: "Have the kernel forget its cached Wi-Fi results before each scan.")
    var flush = false

    var settings: WiFiScanSettings { WiFiScanSettings(scanType: scanType, flush: flush) }
}

/// Where log lines go: standard error, from `level` up. Only commands call this, once.
func bootstrapLogging(_ level: Logger.Level) {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
}
