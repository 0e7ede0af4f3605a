import GRDB
import ScanContract

/// A `room` row, read as a ``Room``.
struct RoomRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "room"

    var id: Int64?
    var floorID: Int64
    var name: String

    enum CodingKeys: String, CodingKey {
        case id, floorID = "floor_id", name
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let floorID = Column(CodingKeys.floorID)
        static let name = Column(CodingKeys.name)
    }

    init(_ new: NewRoom) {
        floorID = new.floorID
        name = new.name
    }

    var room: Room { Room(id: id ?? 0, floorID: floorID, name: name) }
}
