#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A tracked tag (`/v1/tags`): a bike, an asset or a visitor's badge that fixed scanners hear.
public struct Tag: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var identity: TagIdentity
    /// RSSI at 1 m from the tag, dBm, before any scanner's receive offset.
    public var txPower: Int
    /// When true, the first sighting by any scanner raises a ``PresenceEvent`` (`missingTagHeard`).
    public var missing: Bool
    /// How high the tag is carried above the floor, metres.
    public var height: Double
    public var metadata: [String: String]
    /// The latest Eddystone-TLM telemetry a scanner forwarded; absent when none did.
    public var telemetry: EmitterTelemetry?

    public init(
        id: Int64, name: String, identity: TagIdentity, txPower: Int, missing: Bool = false, height: Double = NewTag.defaultHeight,
        metadata: [String: String] = [:]
    ) {
        self.id = id
        self.name = name
        self.identity = identity
        self.txPower = txPower
        self.missing = missing
        self.height = height
        self.metadata = metadata
    }
}

/// A tag to register (`POST /v1/tags`). `txPower` defaults to ``defaultTxPower``, `missing` to
/// false, `height` to ``defaultHeight``, `metadata` to none.
public struct NewTag: Codable, Hashable, Sendable {
    public var name: String
    public var identity: TagIdentity
    public var txPower: Int?
    public var missing: Bool?
    public var height: Double?
    public var metadata: [String: String]?

    public init(
        name: String, identity: TagIdentity, txPower: Int? = nil, missing: Bool? = nil, height: Double? = nil, metadata: [String: String]? = nil
    ) {
        self.name = name
        self.identity = identity
        self.txPower = txPower
        self.missing = missing
        self.height = height
        self.metadata = metadata
    }

    /// A typical iBeacon's calibrated power at 1 m, dBm.
    public static let defaultTxPower = -59
    /// A tag on a bike or in a pocket, metres above the floor.
    public static let defaultHeight = 1.0

    /// - Throws: ``ValidationError`` naming `name`, `txPower`, `height` or `metadata`.
    public func validate() throws(ValidationError) {
        try validateName(name, field: "name")
        if let txPower { try validateTxPower(txPower) }
        if let height { try validateTagHeight(height) }
        try validateMetadata(metadata)
    }
}

/// A change to a tag (`PATCH /v1/tags/{id}`); fields left out keep their value.
public struct TagPatch: Codable, Hashable, Sendable {
    public var name: String?
    public var identity: TagIdentity?
    public var txPower: Int?
    public var missing: Bool?
    public var height: Double?
    public var metadata: [String: String]?

    public init(
        name: String? = nil, identity: TagIdentity? = nil, txPower: Int? = nil, missing: Bool? = nil, height: Double? = nil,
        metadata: [String: String]? = nil
    ) {
        self.name = name
        self.identity = identity
        self.txPower = txPower
        self.missing = missing
        self.height = height
        self.metadata = metadata
    }

    /// A field may be left out; `null` is refused (422 naming it) rather than taken for "left
    /// out", since in a patch it would read as "clear", and no field of a tag can be cleared.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeUnlessAbsent(String.self, forKey: .name)
        identity = try c.decodeUnlessAbsent(TagIdentity.self, forKey: .identity)
        txPower = try c.decodeUnlessAbsent(Int.self, forKey: .txPower)
        missing = try c.decodeUnlessAbsent(Bool.self, forKey: .missing)
        height = try c.decodeUnlessAbsent(Double.self, forKey: .height)
        metadata = try c.decodeUnlessAbsent([String: String].self, forKey: .metadata)
    }

    /// - Throws: ``ValidationError`` as ``NewTag/validate()``.
    public func validate() throws(ValidationError) {
        if let name { try validateName(name, field: "name") }
        if let txPower { try validateTxPower(txPower) }
        if let height { try validateTagHeight(height) }
        try validateMetadata(metadata)
    }
}

extension Tag {
    /// The registered tag `id` as `new` describes it, with its defaults applied.
    public init(id: Int64, _ new: NewTag) {
        self.init(
            id: id, name: new.name, identity: new.identity, txPower: new.txPower ?? NewTag.defaultTxPower,
            missing: new.missing ?? false, height: new.height ?? NewTag.defaultHeight, metadata: new.metadata ?? [:]
        )
    }

    /// The tag with `patch` applied.
    public func applying(_ patch: TagPatch) -> Tag {
        Tag(
            id: id, name: patch.name ?? name, identity: patch.identity ?? identity, txPower: patch.txPower ?? txPower,
            missing: patch.missing ?? missing, height: patch.height ?? height, metadata: patch.metadata ?? metadata
        )
    }
}

private func validateTxPower(_ txPower: Int) throws(ValidationError) {
    guard NewBeacon.measuredPowerRange.contains(txPower) else {
        throw ValidationError(
            field: "txPower",
            reason: "must be the RSSI at 1 m in dBm, \(NewBeacon.measuredPowerRange.lowerBound) to \(NewBeacon.measuredPowerRange.upperBound), got \(txPower)"
        )
    }
}

private func validateTagHeight(_ height: Double) throws(ValidationError) {
    guard height.isFinite, abs(height) <= NewBeacon.heightLimit else {
        throw ValidationError(field: "height", reason: "must be a finite number of metres within ±\(Int(NewBeacon.heightLimit)), got \(height)")
    }
}
