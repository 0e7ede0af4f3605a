/// A route to find (`POST /v1/routes`); `walkingSpeed` (m/s) overrides switchd's setting.
public struct RouteRequest: Codable, Hashable, Sendable {
    public var from: Int64
    public var to: Int64
    public var walkingSpeed: Double?

    public init(from: Int64, to: Int64, walkingSpeed: Double? = nil) {
        self.from = from
        self.to = to
        self.walkingSpeed = walkingSpeed
    }

    /// Walking speeds accepted, m/s: from a shuffle to a run.
    public static let walkingSpeedRange = 0.1...10.0

    /// Checks the walking speed, when one is given.
    public func validate() throws(ValidationError) {
        if let walkingSpeed { try Self.validateWalkingSpeed(walkingSpeed, field: "walkingSpeed") }
    }

    public static func validateWalkingSpeed(_ speed: Double, field: String) throws(ValidationError) {
        guard speed.isFinite, walkingSpeedRange.contains(speed) else {
            throw ValidationError(
                field: field, reason: "must be metres per second from \(walkingSpeedRange.lowerBound) to \(walkingSpeedRange.upperBound), got \(speed)"
            )
        }
    }
}

/// The shortest walk between two locations over the links.
public struct Route: Codable, Hashable, Sendable {
    public var from: Int64
    public var to: Int64
    /// The locations passed, `from` first and `to` last (just `[from]` when they are the same).
    public var path: [Int64]
    public var distanceMetres: Double
    public var etaSeconds: Double
    public var walkingSpeed: Double
    /// How many links on the path join different floors.
    public var floorChanges: Int
    /// Turn-by-turn instructions along ``path``, ending with an arrival.
    public var steps: [RouteStep]

    public init(
        from: Int64, to: Int64, path: [Int64], distanceMetres: Double, etaSeconds: Double, walkingSpeed: Double, floorChanges: Int,
        steps: [RouteStep] = []
    ) {
        self.from = from
        self.to = to
        self.path = path
        self.distanceMetres = distanceMetres
        self.etaSeconds = etaSeconds
        self.walkingSpeed = walkingSpeed
        self.floorChanges = floorChanges
        self.steps = steps
    }
}
