import ScanContract

/// A `room` row, read as a ``Room``; through GRDB, or a ``StoreRow`` on either database.
struct RoomRecord {
    var id: Int64?
    var floorID: Int64
    var name: String

    enum CodingKeys: String, CodingKey {
        case id, floorID = "floor_id", name
    }

    init(_ new: NewRoom) {
        floorID = new.floorID
        name = new.name
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        floorID = try row.int64("floor_id")
        name = try row.string("name")
    }

    /// Rooms ordered by ID, with their outlines, on either database. `filter` is an SQL condition on `room` with a `?`
    /// per value, or empty for all.
    static func fetchRooms(_ sql: any StoreTransaction, filter: String = "", values: [StoreValue] = []) throws -> [Room] {
        let condition = filter.isEmpty ? "" : "WHERE \(filter)"
        var rooms = try sql.rows("SELECT id, floor_id, name FROM room \(condition) ORDER BY id", values).map { try RoomRecord(row: $0).room }
        let corners = try sql.rows("""
            SELECT room_id, x, y FROM room_outline_point WHERE room_id IN (SELECT id FROM room \(condition))
            ORDER BY room_id, ordinal
            """, values)
        var outlines: [Int64: [[Double]]] = [:]
        for row in corners { outlines[try row.int64("room_id"), default: []].append([try row.double("x"), try row.double("y")]) }
        for index in rooms.indices { rooms[index].outline = outlines[rooms[index].id] }
        return rooms
    }

    /// The room, or nil.
    static func fetchRoom(_ sql: any StoreTransaction, id: Int64) throws -> Room? {
        try fetchRooms(sql, filter: "id = ?", values: [.integer(id)]).first
    }

    var room: Room { Room(id: id ?? 0, floorID: floorID, name: name) }
}
