/// A room's shape (`PUT` and `GET /v1/rooms/{id}/outline`): its corners `[x, y]` in plan metres
/// on the room's floor (the coordinates of its locations), in order either way round, the last
/// joined back to the first. The store also refuses an outline that is not a simple polygon
/// with an area (edges that cross, two corners at one spot).
public struct RoomOutline: Codable, Hashable, Sendable {
    public var outline: [[Double]]

    public init(outline: [[Double]]) {
        self.outline = outline
    }

    /// The most corners an outline may have.
    public static let maximumCorners = 200

    /// - Throws: ``ValidationError`` naming `outline` and the corner: fewer than 3 or more than
    ///   ``maximumCorners`` corners, a corner that is not two numbers, or a coordinate that is not
    ///   finite or beyond ±``NewLocation/coordinateLimit`` metres.
    public func validate() throws(ValidationError) {
        guard (3...Self.maximumCorners).contains(outline.count) else {
            throw ValidationError(field: "outline", reason: "needs 3 to \(Self.maximumCorners) corners, got \(outline.count)")
        }
        let limit = NewLocation.coordinateLimit
        for (index, corner) in outline.enumerated() {
            guard corner.count == 2 else {
                throw ValidationError(field: "outline", reason: "corner \(index) must be [x, y], got \(corner.count) numbers")
            }
            for value in corner where !(value.isFinite && abs(value) <= limit) {
                throw ValidationError(
                    field: "outline", reason: "corner \(index) must be finite metres within ±\(Int(limit)), got \(value)"
                )
            }
        }
    }
}
