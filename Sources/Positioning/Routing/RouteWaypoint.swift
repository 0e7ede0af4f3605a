import ScanContract

/// A location a route passes, as turn-by-turn steps need it: where it is on its floor (metres,
/// x to the right and y down the plan, as the plan's pixels run) and the floor's level.
public struct RouteWaypoint: Hashable, Sendable {
    public var locationID: Int64
    public var floorID: Int64
    public var level: Int
    public var x: Double
    public var y: Double
    /// What an arrival there is called ("Arrive at Café").
    public var name: String

    public init(locationID: Int64, floorID: Int64, level: Int, x: Double, y: Double, name: String) {
        self.locationID = locationID
        self.floorID = floorID
        self.level = level
        self.x = x
        self.y = y
        self.name = name
    }
}

/// The link walked between two waypoints of a route: its length and kind.
public struct RouteLeg: Hashable, Sendable {
    public var metres: Double
    public var kind: LinkKind

    public init(metres: Double, kind: LinkKind) {
        self.metres = metres
        self.kind = kind
    }
}
