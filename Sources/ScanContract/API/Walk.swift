import Foundation

/// Whether a walk survey is under way or over (docs/survey-quality.md, "Walk survey").
public enum WalkState: String, Codable, Hashable, Sendable {
    /// The scanner surveys while the admin walks; its readings are not in the radio map yet.
    case walking
    /// The admin arrived; every scan cycle taken on the way is a point of the segment.
    case done
}

/// A walk survey: the admin walks a straight segment from one marked location to another at a
/// steady pace while a scanner surveys; each scan cycle becomes a location (a walk point) placed
/// along the segment by its time.
public struct Walk: Codable, Hashable, Sendable {
    public var id: Int64
    public var scannerID: ScannerID
    /// The start and end locations; null once deleted (the walk keeps its segment).
    public var fromLocationID: Int64?
    public var toLocationID: Int64?
    /// Where the walk points are put: the start location's room and floor.
    public var roomID: Int64
    public var floorID: Int64
    /// The segment, metres on the floor plan, as the end locations were when the walk started.
    public var startX: Double
    public var startY: Double
    public var endX: Double
    public var endY: Double
    /// The switch revision the scanner surveys under during the walk.
    public var switchRevision: Int
    public var startedAt: Date
    public var arrivedAt: Date?
    public var state: WalkState
    /// Walk points made so far: scan cycles taken within the walk's time span.
    public var points: Int
    /// Scan cycles left out because they were taken before the start or after the arrival.
    public var droppedCycles: Int

    public init(
        id: Int64, scannerID: ScannerID, fromLocationID: Int64?, toLocationID: Int64?, roomID: Int64, floorID: Int64,
        startX: Double, startY: Double, endX: Double, endY: Double, switchRevision: Int, startedAt: Date, arrivedAt: Date?,
        state: WalkState, points: Int, droppedCycles: Int
    ) {
        self.id = id
        self.scannerID = scannerID
        self.fromLocationID = fromLocationID
        self.toLocationID = toLocationID
        self.roomID = roomID
        self.floorID = floorID
        self.startX = startX
        self.startY = startY
        self.endX = endX
        self.endY = endY
        self.switchRevision = switchRevision
        self.startedAt = startedAt
        self.arrivedAt = arrivedAt
        self.state = state
        self.points = points
        self.droppedCycles = droppedCycles
    }
}

/// `POST /v1/walks`: start a walk survey for a scanner from one marked location to another.
public struct NewWalk: Codable, Hashable, Sendable {
    public var scannerID: ScannerID
    public var fromLocationID: Int64
    public var toLocationID: Int64

    public init(scannerID: ScannerID, fromLocationID: Int64, toLocationID: Int64) {
        self.scannerID = scannerID
        self.fromLocationID = fromLocationID
        self.toLocationID = toLocationID
    }

    /// The longest segment one walk may cover, metres: a longer walk drifts from a steady pace.
    public static let maximumLength = 30.0

    /// - Throws: naming `toLocationID` when it is the start location.
    public func validate() throws(ValidationError) {
        if toLocationID == fromLocationID {
            throw ValidationError(field: "toLocationID", reason: "the walk must end elsewhere than location \(fromLocationID), where it starts")
        }
    }
}
