/// One instruction of a route, in walking order (``Route/steps``): walk a stretch, take stairs
/// or a lift, arrive.
public struct RouteStep: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable {
        /// Walk on one floor, after ``turn`` (if any).
        case walk
        /// Change floors by the stairs or a lift, ``floorChange`` floors up (positive) or down.
        case stairs
        case lift
        /// The destination is reached; always the last step.
        case arrive
    }

    /// The turn made before walking on, by the angle between the stretch walked and the next.
    public enum Turn: String, Codable, Hashable, Sendable {
        case slightLeft = "slight-left"
        case left
        case slightRight = "slight-right"
        case right
        case around
    }

    public var kind: Kind
    /// Metres walked (or climbed, by the link's length) in this step; 0 for ``Kind/arrive``.
    public var distanceMetres: Double
    /// Only on ``Kind/walk``: nil when it goes straight on, starts the route or follows a floor change.
    public var turn: Turn?
    /// Only on ``Kind/stairs`` and ``Kind/lift``: levels up (positive) or down (negative).
    public var floorChange: Int?
    /// Where the step ends, and that location's floor.
    public var toLocationID: Int64
    public var floorID: Int64
    /// The step in English words: "Turn left and go 12 m to the stairs".
    public var instruction: String

    public init(
        kind: Kind, distanceMetres: Double, turn: Turn? = nil, floorChange: Int? = nil,
        toLocationID: Int64, floorID: Int64, instruction: String
    ) {
        self.kind = kind
        self.distanceMetres = distanceMetres
        self.turn = turn
        self.floorChange = floorChange
        self.toLocationID = toLocationID
        self.floorID = floorID
        self.instruction = instruction
    }
}
