/// Where an item stands (an exhibit: a beacon with content), for telling which one a position
/// is at.
public struct ItemSpot: Hashable, Sendable {
    public var id: Int64
    public var floorID: Int64
    public var x: Double
    public var y: Double

    public init(id: Int64, floorID: Int64, x: Double, y: Double) {
        self.id = id
        self.floorID = floorID
        self.x = x
        self.y = y
    }

    /// A position this close to an item (metres, same floor) is at it.
    public static let nearRadiusMetres = 3.0

    /// The item nearest to (`x`, `y`) on `floorID` within `radius`; of two equally near, the lower ID.
    public static func nearest(
        to x: Double, _ y: Double, floorID: Int64, among items: [ItemSpot], within radius: Double = nearRadiusMetres
    ) -> Int64? {
        var best: (distance: Double, id: Int64)?
        for item in items where item.floorID == floorID {
            let distance = ((item.x - x) * (item.x - x) + (item.y - y) * (item.y - y)).squareRoot()
            guard distance <= radius else { continue }
            if best.map({ (distance, item.id) < ($0.distance, $0.id) }) ?? true { best = (distance, item.id) }
        }
        return best?.id
    }
}
