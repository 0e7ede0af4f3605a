import Foundation
import GRDB
import ScanContract

/// A `position` row, read as a ``Position``. `beacons` is the JSON array of the sightings the
/// scanner reported, or NULL when it reported none.
struct PositionRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "position"

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

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let scannerID = Column(CodingKeys.scannerID)
        static let timeMs = Column(CodingKeys.timeMs)
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
    static let columns = "id, scanner_id, time_ms, building, floor_id, x, y, room_id, nearest_location_id, accuracy_metres, method, beacons"

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        scannerID = try row.string("scanner_id")
        timeMs = try row.int64("time_ms")
        building = try row.string("building")
        floorID = try row.int64("floor_id")
        x = try row.double("x")
        y = try row.double("y")
        roomID = try row.optionalInt64("room_id")
        nearestLocationID = try row.optionalInt64("nearest_location_id")
        accuracyMetres = try row.double("accuracy_metres")
        method = try row.string("method")
        beacons = try row.optionalString("beacons")
    }
}
