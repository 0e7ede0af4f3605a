import Positioning
import ScanContract

/// The `georeference_point` rows: each floor's control points, at their place in the order
/// given, read and written the same way on either database.
enum GeoreferencePointRecord {
    /// Every geo-referenced floor's control points, in order.
    static func controlPointsByFloor(_ sql: any StoreTransaction) throws -> [Int64: [ControlPoint]] {
        let rows = try sql.rows("SELECT floor_id, x, y, latitude, longitude FROM georeference_point ORDER BY floor_id, ordinal", [])
        var points: [Int64: [ControlPoint]] = [:]
        for row in rows {
            let point = ControlPoint(x: try row.double("x"), y: try row.double("y"), latitude: try row.double("latitude"), longitude: try row.double("longitude"))
            points[try row.int64("floor_id"), default: []].append(point)
        }
        return points
    }

    static func insert(_ sql: any StoreTransaction, _ point: ControlPoint, ordinal: Int, ofFloor floorID: Int64) throws {
        try sql.execute(
            "INSERT INTO georeference_point (floor_id, ordinal, x, y, latitude, longitude) VALUES (?, ?, ?, ?, ?, ?)",
            [.integer(floorID), .integer(Int64(ordinal)), .real(point.x), .real(point.y), .real(point.latitude), .real(point.longitude)]
        )
    }

    /// Deletes the floor's control points and returns how many there were.
    @discardableResult
    static func delete(_ sql: any StoreTransaction, ofFloor floorID: Int64) throws -> Int {
        try sql.execute("DELETE FROM georeference_point WHERE floor_id = ?", [.integer(floorID)])
    }
}

/// The fitted geo-reference of every floor that has one, read in one go, to give plan points
/// their latitude and longitude.
struct GeoFrames {
    private let fits: [Int64: GeoAffineFit]

    /// Stored points always fit (they were fitted before they were stored); a floor whose points
    /// somehow no longer fit is left without coordinates rather than failing the read.
    static func load(_ sql: any StoreTransaction) throws -> GeoFrames {
        GeoFrames(fits: try GeoreferencePointRecord.controlPointsByFloor(sql).compactMapValues { points in
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

    func place(_ position: TagPosition) -> TagPosition {
        var position = position
        (position.latitude, position.longitude) = split(coordinates(floorID: position.floorID, x: position.x, y: position.y))
        return position
    }

    private func split(_ coordinates: (latitude: Double, longitude: Double)?) -> (Double?, Double?) {
        (coordinates?.latitude, coordinates?.longitude)
    }
}
