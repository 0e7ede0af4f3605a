import ScanContract

/// A `location` row. Read as a ``Location`` through ``fetchLocations(_:filter:values:)`` on
/// either database, which adds the floor from the location's room.
struct LocationRecord {
    var id: Int64?
    var roomID: Int64
    var name: String
    var x: Double
    var y: Double
    /// Set on a walk point, by ``AppDatabase`` walk placement only.
    var walkID: Int64?
    /// On a walk point: the scan cycle it was made for.
    var walkScan: Int?

    enum CodingKeys: String, CodingKey {
        case id, roomID = "room_id", name, x, y, walkID = "walk_id", walkScan = "walk_scan"
    }

    init(roomID: Int64, name: String, x: Double, y: Double, walkID: Int64? = nil, walkScan: Int? = nil) {
        self.roomID = roomID
        self.name = name
        self.x = x
        self.y = y
        self.walkID = walkID
        self.walkScan = walkScan
    }

    func location(floorID: Int64) -> Location {
        Location(id: id ?? 0, roomID: roomID, floorID: floorID, name: name, x: x, y: y, walkID: walkID)
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        roomID = try row.int64("room_id")
        name = try row.string("name")
        x = try row.double("x")
        y = try row.double("y")
        walkID = try row.optionalInt64("walk_id")
        walkScan = try row.optionalInt("walk_scan")
    }

    /// Locations with their room's floor, ordered by ID, on either database. `filter` is an SQL
    /// condition on `location` and `room` with a `?` per value, or empty for all.
    static func fetchLocations(_ sql: any StoreTransaction, filter: String = "", values: [StoreValue] = []) throws -> [Location] {
        let condition = filter.isEmpty ? "" : "WHERE \(filter)"
        return try sql.rows("""
            SELECT location.id, location.room_id, location.name, location.x, location.y, location.walk_id, location.walk_scan,
                room.floor_id AS floor_id
            FROM location JOIN room ON room.id = location.room_id
            \(condition)
            ORDER BY location.id
            """, values).map { row in
            try LocationRecord(row: row).location(floorID: row.int64("floor_id"))
        }
    }

    /// The location with its room's floor, or nil.
    static func fetchLocation(_ sql: any StoreTransaction, id: Int64) throws -> Location? {
        try fetchLocations(sql, filter: "location.id = ?", values: [.integer(id)]).first
    }

    /// The room a location is in; nil for an unknown location.
    static func roomID(_ sql: any StoreTransaction, ofLocation id: Int64) throws -> Int64? {
        try sql.row("SELECT room_id FROM location WHERE id = ?", [.integer(id)]).map { try $0.int64("room_id") }
    }
}
