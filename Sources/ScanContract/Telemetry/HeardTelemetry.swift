#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The latest plain Eddystone-TLM telemetry a scanner heard from one watched tag or registered
/// beacon (``SightingBatch/telemetry``): what the emitter says of itself, not how it was heard.
/// A scanner sends at most one a minute per emitter, not one per advertisement.
public struct HeardTelemetry: Codable, Hashable, Sendable {
    /// The watched identity the telemetry belongs to: the identity heard from the same device
    /// address as the TLM frame (an Eddystone beacon interleaves its identity and TLM frames).
    public var identity: TagIdentity
    /// When the scanner heard the TLM frame (its clock).
    public var heardAt: Date
    /// Battery voltage, mV; absent when the emitter does not measure it.
    public var batteryMillivolts: Int?
    /// Temperature, °C; absent when the emitter does not measure it.
    public var temperatureCelsius: Double?
    /// Advertising PDUs sent since power-up or reboot.
    public var advertisementCount: Int64
    /// Time since power-up or reboot, seconds.
    public var uptimeSeconds: Double

    public init(
        identity: TagIdentity, heardAt: Date, batteryMillivolts: Int?, temperatureCelsius: Double?, advertisementCount: Int64, uptimeSeconds: Double
    ) {
        self.identity = identity
        self.heardAt = heardAt
        self.batteryMillivolts = batteryMillivolts
        self.temperatureCelsius = temperatureCelsius
        self.advertisementCount = advertisementCount
        self.uptimeSeconds = uptimeSeconds
    }

    /// What Eddystone-TLM can carry: a u16 of millivolts, a signed 8.8 temperature, u32 counts
    /// and a u32 of tenths of a second.
    public static let batteryRange = 1...65_535
    public static let temperatureRange = -128.0...128.0
    public static let advertisementCountRange: ClosedRange<Int64> = 0...Int64(UInt32.max)
    public static let uptimeRange = 0.0...(Double(UInt32.max) / 10)

    /// - Throws: ``ValidationError`` naming the first field out of what a TLM frame can say
    ///   (`batteryMillivolts`, `temperatureCelsius`, `advertisementCount`, `uptimeSeconds`).
    public func validate() throws(ValidationError) {
        if let batteryMillivolts, !Self.batteryRange.contains(batteryMillivolts) {
            throw ValidationError(field: "batteryMillivolts", reason: "must be 1 to 65535 mV, got \(batteryMillivolts)")
        }
        if let temperatureCelsius, !Self.temperatureRange.contains(temperatureCelsius) {
            throw ValidationError(field: "temperatureCelsius", reason: "must be -128 to 128 °C, got \(temperatureCelsius)")
        }
        guard Self.advertisementCountRange.contains(advertisementCount) else {
            throw ValidationError(field: "advertisementCount", reason: "must be 0 to \(UInt32.max), got \(advertisementCount)")
        }
        guard Self.uptimeRange.contains(uptimeSeconds) else {
            throw ValidationError(field: "uptimeSeconds", reason: "must be 0 to \(Self.uptimeRange.upperBound) s, got \(uptimeSeconds)")
        }
    }
}
