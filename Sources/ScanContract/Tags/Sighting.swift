#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one scanner heard of one tag (or registered beacon) in one short window: not every
/// advertisement, their statistics.
public struct Sighting: Codable, Hashable, Sendable {
    public var identity: TagIdentity
    public var windowStart: Date
    public var windowEnd: Date
    /// Advertisements heard in the window, 1 or more.
    public var count: Int
    /// Median RSSI over the window, dBm.
    public var medianRSSI: Double
    /// Strongest RSSI in the window, dBm.
    public var maxRSSI: Int

    public init(identity: TagIdentity, windowStart: Date, windowEnd: Date, count: Int, medianRSSI: Double, maxRSSI: Int) {
        self.identity = identity
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.count = count
        self.medianRSSI = medianRSSI
        self.maxRSSI = maxRSSI
    }
}

/// `POST /v1/sightings`: one scanner's sightings of the windows it closed.
public struct SightingBatch: Codable, Hashable, Sendable {
    public var scannerID: ScannerID
    public var sightings: [Sighting]
    /// The latest Eddystone-TLM telemetry of watched emitters heard since the scanner last sent
    /// some, at most one per emitter a minute; absent from older scanners.
    public var telemetry: [HeardTelemetry]?

    public init(scannerID: ScannerID, sightings: [Sighting], telemetry: [HeardTelemetry]? = nil) {
        self.scannerID = scannerID
        self.sightings = sightings
        self.telemetry = telemetry
    }

    public static let maxSightings = 5_000
    /// RSSI a receiver can report, dBm.
    public static let rssiRange = -127.0...20.0
    /// Longest window, seconds.
    public static let maxWindowSeconds = 60.0

    /// - Throws: ``ValidationError`` naming the first bad field (`sightings[3].count`,
    ///   `telemetry[0].batteryMillivolts`).
    public func validate() throws(ValidationError) {
        guard sightings.count <= Self.maxSightings else {
            throw ValidationError(field: "sightings", reason: "must hold at most \(Self.maxSightings) sightings, got \(sightings.count)")
        }
        let telemetry = telemetry ?? []
        guard telemetry.count <= Self.maxSightings else {
            throw ValidationError(field: "telemetry", reason: "must hold at most \(Self.maxSightings) reports, got \(telemetry.count)")
        }
        for (index, report) in telemetry.enumerated() {
            do {
                try report.validate()
            } catch {
                throw ValidationError(field: "telemetry[\(index)].\(error.field)", reason: error.reason)
            }
        }
        for (index, sighting) in sightings.enumerated() {
            let field = "sightings[\(index)]"
            let length = sighting.windowEnd.timeIntervalSince(sighting.windowStart)
            guard length >= 0, length <= Self.maxWindowSeconds else {
                throw ValidationError(field: "\(field).windowEnd", reason: "must be 0 to \(Int(Self.maxWindowSeconds)) s after windowStart, got \(length) s")
            }
            guard sighting.count >= 1 else {
                throw ValidationError(field: "\(field).count", reason: "must be 1 or more, got \(sighting.count)")
            }
            guard Self.rssiRange.contains(sighting.medianRSSI) else {
                throw ValidationError(field: "\(field).medianRSSI", reason: "must be dBm from -127 to 20, got \(sighting.medianRSSI)")
            }
            guard Self.rssiRange.contains(Double(sighting.maxRSSI)), Double(sighting.maxRSSI) >= sighting.medianRSSI else {
                throw ValidationError(field: "\(field).maxRSSI", reason: "must be dBm from -127 to 20 and at least medianRSSI, got \(sighting.maxRSSI)")
            }
        }
    }
}

/// The answer to `POST /v1/sightings`.
public struct SightingReceipt: Codable, Hashable, Sendable {
    /// Sightings of registered tags or beacons, stored.
    public var stored: Int
    /// Sightings of identities neither registered as a tag nor as a beacon, dropped.
    public var ignored: Int
    /// The positions of the windows this batch closed: earlier windows of the tags it reports
    /// (switchd locates a tag once per window, when the window closes).
    public var positions: [TagPosition]

    public init(stored: Int, ignored: Int, positions: [TagPosition]) {
        self.stored = stored
        self.ignored = ignored
        self.positions = positions
    }
}

/// A stored sighting of a tag (`GET /v1/tags/{id}/sightings`: which scanner heard it, when, how
/// strongly).
public struct StoredSighting: Codable, Hashable, Sendable {
    public var id: Int64
    public var tagID: Int64
    public var scannerID: ScannerID
    public var windowStart: Date
    public var windowEnd: Date
    public var count: Int
    public var medianRSSI: Double
    public var maxRSSI: Int

    public init(
        id: Int64, tagID: Int64, scannerID: ScannerID, windowStart: Date, windowEnd: Date, count: Int, medianRSSI: Double, maxRSSI: Int
    ) {
        self.id = id
        self.tagID = tagID
        self.scannerID = scannerID
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.count = count
        self.medianRSSI = medianRSSI
        self.maxRSSI = maxRSSI
    }
}
