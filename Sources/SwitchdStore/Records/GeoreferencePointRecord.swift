import GRDB
import Positioning
import ScanContract

/// A `georeference_point` row: one control point of a floor, at its place in the order given.
struct GeoreferencePointRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "georeference_point"

    var floorID: Int64
    var ordinal: Int
    var x: Double
    var y: Double
    var latitude: Double
    var longitude: Double

    enum CodingKeys: String, CodingKey {
        case floorID = "floor_id", ordinal, x, y, latitude, longitude
    }

    enum Columns {
        static let floorID = Column(CodingKeys.floorID)
        static let ordinal = Column(CodingKeys.ordinal)
    }

    var controlPoint: ControlPoint { ControlPoint(x: x, y: y, latitude: latitude, longitude: longitude) }

    /// Every geo-referenced floor's control points, in order.
    static func controlPointsByFloor(_ db: Database) throws -> [Int64: [ControlPoint]] {
        let records = try GeoreferencePointRecord.order(Columns.floorID, Columns.ordinal).fetchAll(db)
        return Dictionary(grouping: records, by: \.floorID).mapValues { $0.map(\.controlPoint) }
    }
}

/// The fitted geo-reference of every floor that has one, read in one go, to give plan points
/// their latitude and longitude.
struct GeoFrames {
    private let fits: [Int64: GeoAffineFit]

    /// Stored points always fit (they were fitted before they were stored); a floor whose points
    /// somehow no longer fit is left without coordinates rather than failing the read.
    static func load(_ db: Database) throws -> GeoFrames {
        GeoFrames(fits: try GeoreferencePointRecord.controlPointsByFloor(db).compactMapValues { points in
            try? GeoAffineFit(points)
        })
    }

    func fit(ofFloor floorID: Int64) -> GeoAffineFit? { fits[floorID] }

    /// Latitude and longitude of a plan point, nil when its floor is not geo-referenced.
    func coordinates(floorID: Int64, x: Double, y: Double) -> (latitude: Double, longitude: Double)? {
        fits[floorID]?.coordinates(x: x, y: y)
    }

    func place(_ location: Location) -> Location {
        var location = location
        (location.latitude, location.longitude) = split(coordinates(floorID: location.floorID, x: location.x, y: location.y))
        return location
    }

    func place(_ beacon: Beacon) -> Beacon {
        var beacon = beacon
        (beacon.latitude, beacon.longitude) = split(coordinates(floorID: beacon.floorID, x: beacon.x, y: beacon.y))
        return beacon
    }

    func place(_ position: Position) -> Position {
        var position = position
        (position.latitude, position.longitude) = split(coordinates(floorID: position.floor, x: position.x, y: position.y))
        return position
    }

    private func split(_ coordinates: (latitude: Double, longitude: Double)?) -> (Double?, Double?) {
        (coordinates?.latitude, coordinates?.longitude)
    }
}
