/// How one walks from one location to the next.
public enum LinkKind: String, Codable, Hashable, Sendable, CaseIterable {
    case walk
    case stairs
    case lift

    /// Whether the link may join locations on different floors.
    public var changesFloor: Bool { self != .walk }
}

/// A walkable connection between two locations (`/v1/links`), the same both ways.
public struct Link: Codable, Hashable, Sendable {
    public var id: Int64
    public var from: Int64
    public var to: Int64
    public var kind: LinkKind
    /// The walking distance, metres.
    public var distanceMetres: Double

    public init(id: Int64, from: Int64, to: Int64, kind: LinkKind, distanceMetres: Double) {
        self.id = id
        self.from = from
        self.to = to
        self.kind = kind
        self.distanceMetres = distanceMetres
    }
}

/// A link to create. Without `distanceMetres`, a link on one floor is as long as the straight
/// line between its locations, and one between floors of the same building as that line plus
/// ``storeyHeightMetres`` per storey climbed.
public struct NewLink: Codable, Hashable, Sendable {
    public var from: Int64
    public var to: Int64
    public var kind: LinkKind
    public var distanceMetres: Double?

    public init(from: Int64, to: Int64, kind: LinkKind, distanceMetres: Double? = nil) {
        self.from = from
        self.to = to
        self.kind = kind
        self.distanceMetres = distanceMetres
    }

    /// The distance one storey adds to a default stairs or lift link.
    public static let storeyHeightMetres = 4.0
    /// The longest link accepted, metres.
    public static let maxDistanceMetres = 10_000.0

    /// Checks what does not need the locations: not a link to itself, a sane distance.
    public func validate() throws(ValidationError) {
        guard from != to else {
            throw ValidationError(field: "to", reason: "must be another location than from (\(from)); a location is always reachable from itself")
        }
        if let distanceMetres, !(distanceMetres.isFinite && distanceMetres > 0 && distanceMetres <= Self.maxDistanceMetres) {
            throw ValidationError(
                field: "distanceMetres", reason: "must be a finite number of metres above 0 and at most \(Int(Self.maxDistanceMetres)), got \(distanceMetres)"
            )
        }
    }
}
