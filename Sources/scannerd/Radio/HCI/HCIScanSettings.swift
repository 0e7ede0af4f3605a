/// How the BLE source asks the controller to scan.
struct HCIScanSettings: Sendable, Equatable {
    /// LE_Scan_Type: passive listens only; active also sends scan requests (and hears scan responses).
    enum ScanType: String, CaseIterable, Sendable {
        case passive, active

        /// The LE_Scan_Type parameter value (Core Vol 4, Part E, §7.8.10).
        var parameter: UInt8 { self == .passive ? 0x00 : 0x01 }
    }

    var scanType: ScanType = .passive
    /// LE_Scan_Interval: how often the controller starts listening on the next channel.
    var intervalMilliseconds = 100.0
    /// LE_Scan_Window: how long it listens each time; at most the interval. Equal to it means
    /// listening all the time.
    var windowMilliseconds = 100.0
    /// Use the legacy scan commands even when the controller has the extended ones.
    var legacyOnly = false

    /// Milliseconds the commands accept for interval and window: 0x0004–0x4000 units of 0.625 ms
    /// (switchd's settings check the same range, ``ScannerSettings/bleMillisecondsRange``).
    static let millisecondsRange = 2.5...10_240.0

    /// A problem with the settings, worded for the command line; nil when they are usable.
    var problem: String? {
        for (name, value) in [("--ble-interval-ms", intervalMilliseconds), ("--ble-window-ms", windowMilliseconds)]
        where !(value.isFinite && Self.millisecondsRange.contains(value)) {
            return "\(name) must be between \(Self.millisecondsRange.lowerBound) and \(Self.millisecondsRange.upperBound), got \(value)"
        }
        guard windowMilliseconds <= intervalMilliseconds else {
            return "--ble-window-ms (\(windowMilliseconds)) must not be more than --ble-interval-ms (\(intervalMilliseconds))"
        }
        return nil
    }

    /// The interval in the controller's units of 0.625 ms.
    var intervalUnits: UInt16 { Self.units(intervalMilliseconds) }
    var windowUnits: UInt16 { Self.units(windowMilliseconds) }

    /// Rounded to the nearest unit, within the commands' 0x0004–0x4000.
    private static func units(_ milliseconds: Double) -> UInt16 {
        UInt16(min(max((milliseconds / 0.625).rounded(), 4), 0x4000))
    }
}
