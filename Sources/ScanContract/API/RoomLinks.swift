/// A door of a room: a link from one of its locations to a location in another room.
public struct RoomDoor: Codable, Hashable, Sendable {
    /// The location inside the room.
    public var locationID: Int64
    /// The location on the other side, and its room and floor.
    public var otherLocationID: Int64
    public var otherRoomID: Int64
    public var otherFloorID: Int64
    public var link: Link

    public init(locationID: Int64, otherLocationID: Int64, otherRoomID: Int64, otherFloorID: Int64, link: Link) {
        self.locationID = locationID
        self.otherLocationID = otherLocationID
        self.otherRoomID = otherRoomID
        self.otherFloorID = otherFloorID
        self.link = link
    }
}

/// What `POST /v1/rooms/{id}/autolink` takes: link each pair of the room's locations at most
/// `maxDistanceMetres` apart (straight line on the plan) by a walk.
public struct AutolinkRequest: Codable, Hashable, Sendable {
    public var maxDistanceMetres: Double

    public init(maxDistanceMetres: Double) {
        self.maxDistanceMetres = maxDistanceMetres
    }

    public static let maxDistanceRange = 0.01...1_000.0

    public func validate() throws(ValidationError) {
        guard maxDistanceMetres.isFinite, Self.maxDistanceRange.contains(maxDistanceMetres) else {
            throw ValidationError(
                field: "maxDistanceMetres",
                reason: "must be between \(Self.maxDistanceRange.lowerBound) and \(Self.maxDistanceRange.upperBound) metres, got \(maxDistanceMetres)"
            )
        }
    }
}

/// What an autolink did: the links it made, how many pairs within reach were linked already, and
/// how many it left unlinked because a wall of the plan stands between them.
public struct AutolinkResult: Codable, Hashable, Sendable {
    public var roomID: Int64
    public var created: [Link]
    public var alreadyLinked: Int
    public var blockedByWalls: Int
    /// How many wall segments the floor's plan gave (0 when it has none, or no scale).
    public var walls: Int

    public init(roomID: Int64, created: [Link], alreadyLinked: Int, blockedByWalls: Int, walls: Int) {
        self.roomID = roomID
        self.created = created
        self.alreadyLinked = alreadyLinked
        self.blockedByWalls = blockedByWalls
        self.walls = walls
    }
}
