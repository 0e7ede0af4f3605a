import Foundation
import GRDB
import ScanContract

/// A `tag_position` row, read as a ``TagPosition``.
struct TagPositionRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "tag_position"

    var id: Int64?
    var tagID: Int64
    var timeMs: Int64
    var floorID: Int64
    var x: Double
    var y: Double
    var roomID: Int64?
    var accuracyMetres: Double
    var method: String
    var scannersHeard: Int

    enum CodingKeys: String, CodingKey {
        case id, tagID = "tag_id", timeMs = "time_ms", floorID = "floor_id", x, y, roomID = "room_id"
        case accuracyMetres = "accuracy_metres", method, scannersHeard = "scanners_heard"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let tagID = Column(CodingKeys.tagID)
        static let timeMs = Column(CodingKeys.timeMs)
    }

    init(_ position: TagPosition) {
        id = position.id == 0 ? nil : position.id
        tagID = position.tagID
        timeMs = position.time.milliseconds
        floorID = position.floorID
        x = position.x
        y = position.y
        roomID = position.roomID
        accuracyMetres = position.accuracyMetres
        method = position.method
        scannersHeard = position.scannersHeard
    }

    var position: TagPosition {
        TagPosition(
            id: id ?? 0, tagID: tagID, time: Date(milliseconds: timeMs), floorID: floorID, x: x, y: y, roomID: roomID,
            accuracyMetres: accuracyMetres, method: method, scannersHeard: scannersHeard
        )
    }
}
