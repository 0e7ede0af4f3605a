#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The latest telemetry switchd keeps of a beacon or a tag (`telemetry` in `GET /v1/beacons`
/// and `GET /v1/tags`): what the emitter last said of itself, when and through which scanner.
public struct EmitterTelemetry: Codable, Hashable, Sendable {
    public var batteryMillivolts: Int?
    public var temperatureCelsius: Double?
    public var advertisementCount: Int64
    public var uptimeSeconds: Double
    /// When the scanner heard it (the scanner's clock).
    public var reportedAt: Date
    public var scannerID: ScannerID
    /// True from the report that took the battery below switchd's `--battery-low-millivolts`
    /// (the `batteryLow` event) until one above it plus the hysteresis.
    public var batteryLow: Bool

    public init(
        batteryMillivolts: Int?, temperatureCelsius: Double?, advertisementCount: Int64, uptimeSeconds: Double, reportedAt: Date,
        scannerID: ScannerID, batteryLow: Bool
    ) {
        self.batteryMillivolts = batteryMillivolts
        self.temperatureCelsius = temperatureCelsius
        self.advertisementCount = advertisementCount
        self.uptimeSeconds = uptimeSeconds
        self.reportedAt = reportedAt
        self.scannerID = scannerID
        self.batteryLow = batteryLow
    }
}
