#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A GeoJSON geometry (RFC 7946 §3.1): positions are `[longitude, latitude]` in WGS 84 degrees.
public enum GeoJSONGeometry: Hashable, Sendable {
    case point([Double])
    case multiPoint([[Double]])
    case lineString([[Double]])
    /// Linear rings, the first the exterior (anticlockwise, first position repeated at the end).
    case polygon([[[Double]]])
}

extension GeoJSONGeometry: Codable {
    enum CodingKeys: String, CodingKey {
        case type, coordinates
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .type) {
        case "Point": self = .point(try c.decode([Double].self, forKey: .coordinates))
        case "MultiPoint": self = .multiPoint(try c.decode([[Double]].self, forKey: .coordinates))
        case "LineString": self = .lineString(try c.decode([[Double]].self, forKey: .coordinates))
        case "Polygon": self = .polygon(try c.decode([[[Double]]].self, forKey: .coordinates))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unsupported geometry type \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .point(let position):
            try c.encode("Point", forKey: .type)
            try c.encode(position, forKey: .coordinates)
        case .multiPoint(let positions):
            try c.encode("MultiPoint", forKey: .type)
            try c.encode(positions, forKey: .coordinates)
        case .lineString(let positions):
            try c.encode("LineString", forKey: .type)
            try c.encode(positions, forKey: .coordinates)
        case .polygon(let rings):
            try c.encode("Polygon", forKey: .type)
            try c.encode(rings, forKey: .coordinates)
        }
    }
}

/// What a feature of a floor export says about itself; only the fields of its `kind` are set.
public struct FloorFeatureProperties: Codable, Hashable, Sendable {
    /// `room`, `location`, `beacon` or `link`.
    public var kind: String
    public var id: Int64
    public var name: String?
    public var floorID: Int64?
    public var roomID: Int64?
    /// Plan metres (locations and beacons).
    public var x: Double?
    public var y: Double?
    public var uuid: UUID?
    public var major: UInt16?
    public var minor: UInt16?
    public var metadata: [String: String]?
    public var from: Int64?
    public var to: Int64?
    public var linkKind: LinkKind?
    public var distanceMetres: Double?

    public init(kind: String, id: Int64) {
        self.kind = kind
        self.id = id
    }
}

/// A GeoJSON Feature (RFC 7946 §3.2); `geometry` is null for a room with no located spot.
public struct FloorFeature: Codable, Hashable, Sendable {
    public var type = "Feature"
    public var id: String
    public var geometry: GeoJSONGeometry?
    public var properties: FloorFeatureProperties

    public init(id: String, geometry: GeoJSONGeometry?, properties: FloorFeatureProperties) {
        self.id = id
        self.geometry = geometry
        self.properties = properties
    }

    enum CodingKeys: String, CodingKey {
        case type, id, geometry, properties
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(id, forKey: .id)
        // RFC 7946 §3.2: a feature without a location has "geometry": null, never no member.
        try c.encode(geometry, forKey: .geometry)
        try c.encode(properties, forKey: .properties)
    }
}

/// A GeoJSON FeatureCollection (RFC 7946 §3.3): a floor's rooms, locations, beacons and links.
public struct FloorFeatureCollection: Codable, Hashable, Sendable {
    public var type = "FeatureCollection"
    public var features: [FloorFeature]

    public init(features: [FloorFeature]) {
        self.features = features
    }
}
