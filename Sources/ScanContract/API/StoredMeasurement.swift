#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A measurement as switchd keeps and serves it: the reading plus where and under what switch it
/// was taken. `sequence` orders the feed (cursor paging, `id:` of the live stream).
public struct StoredMeasurement: Codable, Hashable, Sendable {
    public var sequence: Int64
    public var scannerID: ScannerID
    public var batchID: UUID
    public var switchRevision: Int
    public var mode: ScanMode
    public var roomID: Int64?
    public var locationID: Int64?
    public var measurement: Measurement

    public init(
        sequence: Int64, scannerID: ScannerID, batchID: UUID, switchRevision: Int, mode: ScanMode,
        roomID: Int64?, locationID: Int64?, measurement: Measurement
    ) {
        self.sequence = sequence
        self.scannerID = scannerID
        self.batchID = batchID
        self.switchRevision = switchRevision
        self.mode = mode
        self.roomID = roomID
        self.locationID = locationID
        self.measurement = measurement
    }

    enum CodingKeys: String, CodingKey {
        case sequence, scannerID, batchID, switchRevision, mode, roomID, locationID
    }

    /// Flat JSON: the tagging fields next to the measurement's own fields.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try c.decode(Int64.self, forKey: .sequence)
        scannerID = try c.decode(ScannerID.self, forKey: .scannerID)
        batchID = try c.decode(UUID.self, forKey: .batchID)
        switchRevision = try c.decode(Int.self, forKey: .switchRevision)
        mode = try c.decode(ScanMode.self, forKey: .mode)
        roomID = try c.decodeIfPresent(Int64.self, forKey: .roomID)
        locationID = try c.decodeIfPresent(Int64.self, forKey: .locationID)
        measurement = try Measurement(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try measurement.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(scannerID, forKey: .scannerID)
        try c.encode(batchID, forKey: .batchID)
        try c.encode(switchRevision, forKey: .switchRevision)
        try c.encode(mode, forKey: .mode)
        try c.encodeIfPresent(roomID, forKey: .roomID)
        try c.encodeIfPresent(locationID, forKey: .locationID)
    }
}

/// Filters of `GET /v1/measurements` and its stream.
public struct MeasurementFilter: Hashable, Sendable {
    public var scannerID: ScannerID?
    public var locationID: Int64?
    public var roomID: Int64?
    public var kind: RadioKind?
    public var since: Date?
    public var until: Date?
    public var emitter: EmitterFilter?

    public init(
        scannerID: ScannerID? = nil, locationID: Int64? = nil, roomID: Int64? = nil, kind: RadioKind? = nil, since: Date? = nil,
        until: Date? = nil, emitter: EmitterFilter? = nil
    ) {
        self.emitter = emitter
        self.scannerID = scannerID
        self.locationID = locationID
        self.roomID = roomID
        self.kind = kind
        self.since = since
        self.until = until
    }
}
