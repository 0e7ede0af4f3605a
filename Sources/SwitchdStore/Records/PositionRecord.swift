import Foundation
import ScanContract

/// A `position` row, read as a ``Position``; through GRDB, or a ``StoreRow`` on either database. `beacons` is the JSON array of the sightings the
/// scanner reported, or NULL when it reported none.
struct PositionRecord {
    var id: Int64?
    var scannerID: String
    var timeMs: Int64
    var building: String
    var floorID: Int64
    var x: Double
    var y: Double
    var roomID: Int64?
    var nearestLocationID: Int64?
    var accuracyMetres: Double
    var method: String
    var beacons: String?

    enum CodingKeys: String, CodingKey {
        case id, scannerID = "scanner_id", timeMs = "time_ms", building, floorID = "floor_id", x, y, roomID = "room_id"
        case nearestLocationID = "nearest_location_id", accuracyMetres = "accuracy_metres", method, beacons
    }

    /// - Throws: when the sightings cannot be encoded.
    init(_ new: NewPosition) throws {
        scannerID = new.scannerID.rawValue
        timeMs = new.time.milliseconds
        building = new.building
        floorID = new.floor
        x = new.x
        y = new.y
        roomID = new.roomID
        nearestLocationID = new.nearestLocationID
        accuracyMetres = new.accuracyMetres
        method = new.method
        beacons = try new.beacons.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        typealias Key = CodingKeys
        id = try row.int64(Key.id.rawValue)
        scannerID = try row.string(Key.scannerID.rawValue)
        timeMs = try row.int64(Key.timeMs.rawValue)
        building = try row.string(Key.building.rawValue)
        floorID = try row.int64(Key.floorID.rawValue)
        x = try row.double(Key.x.rawValue)
        y = try row.double(Key.y.rawValue)
        roomID = try row.optionalInt64(Key.roomID.rawValue)
        nearestLocationID = try row.optionalInt64(Key.nearestLocationID.rawValue)
        accuracyMetres = try row.double(Key.accuracyMetres.rawValue)
        method = try row.string(Key.method.rawValue)
        beacons = try row.optionalString(Key.beacons.rawValue)
    }

    /// Inserts the row on either database and returns it with its new ID.
    ///
    /// - Throws: the driver's error (a floor, room or location deleted meanwhile breaks a key).
    func insert(_ sql: any StoreTransaction) throws -> PositionRecord {
        let row = try sql.row("""
            INSERT INTO position (scanner_id, time_ms, building, floor_id, x, y, room_id, nearest_location_id, accuracy_metres, method, beacons)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [
                .text(scannerID), .integer(timeMs), .text(building), .integer(floorID), .real(x), .real(y), StoreValue(roomID),
                StoreValue(nearestLocationID), .real(accuracyMetres), .text(method), StoreValue(beacons),
            ])
        var inserted = self
        inserted.id = try row?.int64("id")
        return inserted
    }

    /// Positions matching `filter` (an SQL condition on `position` with a `?` per value, or empty
    /// for all) in `order`, at most `limit`, on either database.
    static func fetchPositions(
        _ sql: any StoreTransaction, filter: String, order: String, limit: Int, values: [StoreValue]
    ) throws -> [PositionRecord] {
        let condition = filter.isEmpty ? "" : "WHERE \(filter)"
        return try sql.rows("SELECT * FROM position \(condition) ORDER BY \(order) LIMIT ?", values + [StoreValue(limit)])
            .map(PositionRecord.init(row:))
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a scanner ID or sightings switchd does not write.
    func position() throws -> Position {
        let sightings: [BeaconSighting]?
        do {
            sightings = try beacons.map { try JSONDecoder().decode([BeaconSighting].self, from: Data($0.utf8)) }
        } catch {
            throw StoreError.corruptRow("position \(id ?? 0) holds unreadable beacons: \(error)")
        }
        let new = NewPosition(
            scannerID: try storedScannerID(scannerID), time: Date(milliseconds: timeMs), building: building, floor: floorID,
            x: x, y: y, roomID: roomID, nearestLocationID: nearestLocationID, accuracyMetres: accuracyMetres, method: method,
            beacons: sightings
        )
        return Position(id: id ?? 0, new)
    }
}

extension PositionRecord {
    /// Every column, in the order ``init(row:)`` reads them.
    static let columns = "id, scanner_id, time_ms, building, floor_id, x, y, room_id, nearest_location_id, accuracy_metres, method, beacons"
}
