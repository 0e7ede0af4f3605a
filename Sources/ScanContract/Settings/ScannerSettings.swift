#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Any key of a JSON object, to find the keys a type does not know.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// What switchd asks a scanner to scan with (`PATCH /v1/scanners/{id}`, fleet defaults on `*`):
/// each key is optional, a scanner's own key overrides the fleet's, and a key set nowhere keeps
/// the scanner's local setting (its TOML or command line). See docs/scanner-settings.md.
///
/// Decoding keeps the names of keys it does not know in ``unknownKeys``: switchd refuses them
/// (``validate()``), a scannerd too old for a key reports it as not applied.
public struct ScannerSettings: Codable, Hashable, Sendable {
    /// `active` or `passive` (`--ble-scan`).
    public var bleScan: String?
    /// LE scan interval, milliseconds (`--ble-interval-ms`).
    public var bleIntervalMs: Double?
    /// LE scan window, milliseconds, at most the interval (`--ble-window-ms`).
    public var bleWindowMs: Double?
    /// Seconds from the start of one Wi-Fi scan to the next; 0: back to back.
    public var wifiScanPeriodS: Double?
    /// In locate mode, BLE advertisements of this many last milliseconds count (`--locate-ble-window-ms`).
    public var locateWindowMs: Double?
    /// The listening role on or off (`--listen`).
    public var listen: Bool?
    /// The listening role's sighting window, seconds (`--listen-window-seconds`).
    public var listenWindowS: Double?
    /// Least severe log level written (`--log-level`).
    public var logLevel: String?
    /// Keys decoded that are none of the above.
    public var unknownKeys: [String] = []

    public init(
        bleScan: String? = nil, bleIntervalMs: Double? = nil, bleWindowMs: Double? = nil, wifiScanPeriodS: Double? = nil,
        locateWindowMs: Double? = nil, listen: Bool? = nil, listenWindowS: Double? = nil, logLevel: String? = nil
    ) {
        self.bleScan = bleScan
        self.bleIntervalMs = bleIntervalMs
        self.bleWindowMs = bleWindowMs
        self.wifiScanPeriodS = wifiScanPeriodS
        self.locateWindowMs = locateWindowMs
        self.listen = listen
        self.listenWindowS = listenWindowS
        self.logLevel = logLevel
    }

    /// The BLE scan types.
    public static let bleScanTypes = ["active", "passive"]
    /// The log levels, least severe first.
    public static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
    /// LE_Scan_Interval and LE_Scan_Window: 0x0004–0x4000 units of 0.625 ms (Core Vol 4, Part E, §7.8.10).
    public static let bleMillisecondsRange = 2.5...10_240.0
    public static let wifiScanPeriodRange = 0.0...3_600.0
    public static let locateWindowRange = 100.0...60_000.0
    public static let listenWindowRange = 0.001...SightingBatch.maxWindowSeconds

    /// Every key, in the order of the JSON.
    public static let keys = ["bleScan", "bleIntervalMs", "bleWindowMs", "wifiScanPeriodS", "locateWindowMs", "listen", "listenWindowS", "logLevel"]

    /// No key set.
    public var isEmpty: Bool { self == ScannerSettings() }

    /// These settings with each key they leave unset taken from `base`.
    public func overriding(_ base: ScannerSettings) -> ScannerSettings {
        var merged = ScannerSettings(
            bleScan: bleScan ?? base.bleScan, bleIntervalMs: bleIntervalMs ?? base.bleIntervalMs,
            bleWindowMs: bleWindowMs ?? base.bleWindowMs, wifiScanPeriodS: wifiScanPeriodS ?? base.wifiScanPeriodS,
            locateWindowMs: locateWindowMs ?? base.locateWindowMs, listen: listen ?? base.listen,
            listenWindowS: listenWindowS ?? base.listenWindowS, logLevel: logLevel ?? base.logLevel
        )
        merged.unknownKeys = Array(Set(unknownKeys + base.unknownKeys)).sorted()
        return merged
    }

    /// Throws ``ValidationError`` naming the first key that is unknown or out of its range, or
    /// `bleWindowMs` when it is more than `bleIntervalMs`.
    public func validate() throws(ValidationError) {
        if let key = unknownKeys.first {
            throw ValidationError(field: key, reason: "is not a scanner setting; the settings are \(Self.keys.joined(separator: ", "))")
        }
        if let bleScan, !Self.bleScanTypes.contains(bleScan) {
            throw ValidationError(field: "bleScan", reason: "must be active or passive, got \(bleScan)")
        }
        try Self.check("bleIntervalMs", bleIntervalMs, in: Self.bleMillisecondsRange, unit: "ms")
        try Self.check("bleWindowMs", bleWindowMs, in: Self.bleMillisecondsRange, unit: "ms")
        if let bleIntervalMs, let bleWindowMs, bleWindowMs > bleIntervalMs {
            throw ValidationError(field: "bleWindowMs", reason: "must not be more than bleIntervalMs (\(bleIntervalMs)), got \(bleWindowMs)")
        }
        try Self.check("wifiScanPeriodS", wifiScanPeriodS, in: Self.wifiScanPeriodRange, unit: "s")
        try Self.check("locateWindowMs", locateWindowMs, in: Self.locateWindowRange, unit: "ms")
        try Self.check("listenWindowS", listenWindowS, in: Self.listenWindowRange, unit: "s")
        if let logLevel, !Self.logLevels.contains(logLevel) {
            throw ValidationError(field: "logLevel", reason: "must be one of \(Self.logLevels.joined(separator: ", ")), got \(logLevel)")
        }
    }

    private static func check(_ key: String, _ value: Double?, in range: ClosedRange<Double>, unit: String) throws(ValidationError) {
        guard let value, !(value.isFinite && range.contains(value)) else { return }
        throw ValidationError(field: key, reason: "must be between \(range.lowerBound) and \(range.upperBound) \(unit), got \(value)")
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        func key(_ name: String) -> AnyKey { AnyKey(stringValue: name) }
        bleScan = try container.decodeIfPresent(String.self, forKey: key("bleScan"))
        bleIntervalMs = try container.decodeIfPresent(Double.self, forKey: key("bleIntervalMs"))
        bleWindowMs = try container.decodeIfPresent(Double.self, forKey: key("bleWindowMs"))
        wifiScanPeriodS = try container.decodeIfPresent(Double.self, forKey: key("wifiScanPeriodS"))
        locateWindowMs = try container.decodeIfPresent(Double.self, forKey: key("locateWindowMs"))
        listen = try container.decodeIfPresent(Bool.self, forKey: key("listen"))
        listenWindowS = try container.decodeIfPresent(Double.self, forKey: key("listenWindowS"))
        logLevel = try container.decodeIfPresent(String.self, forKey: key("logLevel"))
        unknownKeys = container.allKeys.map(\.stringValue).filter { !Self.keys.contains($0) }.sorted()
    }

    /// Unknown keys are written as null, so a scannerd that saves its switch and reads it back
    /// still knows which keys it did not understand.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        func key(_ name: String) -> AnyKey { AnyKey(stringValue: name) }
        try container.encodeIfPresent(bleScan, forKey: key("bleScan"))
        try container.encodeIfPresent(bleIntervalMs, forKey: key("bleIntervalMs"))
        try container.encodeIfPresent(bleWindowMs, forKey: key("bleWindowMs"))
        try container.encodeIfPresent(wifiScanPeriodS, forKey: key("wifiScanPeriodS"))
        try container.encodeIfPresent(locateWindowMs, forKey: key("locateWindowMs"))
        try container.encodeIfPresent(listen, forKey: key("listen"))
        try container.encodeIfPresent(listenWindowS, forKey: key("listenWindowS"))
        try container.encodeIfPresent(logLevel, forKey: key("logLevel"))
        for unknown in unknownKeys { try container.encodeNil(forKey: key(unknown)) }
    }
}

/// `PATCH /v1/scanners/{id}`: a new name, new settings (replacing the scanner's own settings
/// whole; `{}` clears them), or both. On `*` (the fleet's defaults) only `settings`.
public struct ScannerPatch: Codable, Hashable, Sendable {
    public var name: String?
    public var settings: ScannerSettings?

    public init(name: String? = nil, settings: ScannerSettings? = nil) {
        self.name = name
        self.settings = settings
    }

    /// Keys decoded that are neither `name` nor `settings`.
    public var unknownKeys: [String] = []

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, settings
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        settings = try container.decodeIfPresent(ScannerSettings.self, forKey: .settings)
        unknownKeys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            .filter { CodingKeys(rawValue: $0) == nil }.sorted()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(settings, forKey: .settings)
    }

    public func validate() throws(ValidationError) {
        if let key = unknownKeys.first {
            throw ValidationError(field: key, reason: "is not a scanner field; PATCH takes name and settings")
        }
        if let name { try validateName(name, field: "name") }
        do {
            try settings?.validate()
        } catch {
            throw ValidationError(field: "settings.\(error.field)", reason: error.reason)
        }
    }
}

/// The settings switchd holds for a scanner or for the fleet (`*`): in the answer to
/// `PATCH /v1/scanners/*` and `GET /v1/scanners/*`.
public struct FleetSettings: Codable, Hashable, Sendable {
    public var id: String
    public var settings: ScannerSettings
    /// 0 before the first change.
    public var settingsRevision: Int

    public init(id: String = "*", settings: ScannerSettings, settingsRevision: Int) {
        self.id = id
        self.settings = settings
        self.settingsRevision = settingsRevision
    }
}
