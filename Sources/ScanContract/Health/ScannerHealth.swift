#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a scanner is doing, as switchd knows it from its counter reports
/// (`PUT /v1/scanners/{id}/counters`, every 15 s by default): shown with the scanner in
/// `GET /v1/scanners` and `GET /v1/scanners/{id}`, its fields beside `id` and `name`.
/// Everything but `online` and `versionMismatch` is absent until the scanner has reported, and
/// `version`, `radios` and `clockSkew` stay absent for a scannerd too old to send them.
public struct ScannerHealth: Codable, Hashable, Sendable {
    /// Whether switchd heard from it within `--scanner-offline-after`.
    public var online: Bool?
    /// When switchd last received a report from it (switchd's clock).
    public var lastSeen: Date?
    /// The scannerd version it reported.
    public var version: String?
    /// What its switch asks of it: `off`, `survey` or `locate`.
    public var mode: String?
    /// Each radio adapter, its state and counts, as last reported.
    public var radios: [RadioHealth]?
    /// Sealed batches waiting in its spool, as last reported.
    public var spoolDepth: Int?
    /// Readings its spool dropped since scannerd started, as last reported.
    public var droppedReadings: Int?
    /// Seconds its clock was ahead of switchd's (negative: behind) when it last reported,
    /// the report's transit included.
    public var clockSkew: Double?
    /// True when scanners that reported a version do not all run the same one.
    public var versionMismatch: Bool?
    /// The scanner's own settings (`PATCH /v1/scanners/{id}`), without the fleet's defaults.
    public var settings: ScannerSettings?
    /// The revision of the settings switchd asks of it (its own over the fleet's); absent before any.
    public var settingsRevision: Int?
    /// The settings revision the scanner last reported running with.
    public var appliedRevision: Int?
    /// The settings the scanner reported it does not know or could not apply, with why.
    public var unappliedSettings: [String: String]?
    /// Every setting as the scanner last reported it in effect.
    public var appliedSettings: ScannerSettings?

    public init(
        online: Bool, lastSeen: Date? = nil, version: String? = nil, mode: String? = nil, radios: [RadioHealth]? = nil,
        spoolDepth: Int? = nil, droppedReadings: Int? = nil, clockSkew: Double? = nil, versionMismatch: Bool = false
    ) {
        self.online = online
        self.lastSeen = lastSeen
        self.version = version
        self.mode = mode
        self.radios = radios
        self.spoolDepth = spoolDepth
        self.droppedReadings = droppedReadings
        self.clockSkew = clockSkew
        self.versionMismatch = versionMismatch
    }
}
