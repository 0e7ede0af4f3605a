import ScanContract

/// A `floor` row. Read as a ``Floor`` through ``fetchFloors(_:filter:values:)`` on either
/// database, which adds what the floor's plan is.
struct FloorRecord {
    var id: Int64?
    var building: String
    var name: String
    var level: Int
    /// The plan's scale: all three or none.
    var metresPerPixel: Double?
    var originX: Double?
    var originY: Double?

    enum CodingKeys: String, CodingKey {
        case id, building, name, level
        case metresPerPixel = "metres_per_pixel", originX = "origin_x", originY = "origin_y"
    }

    init(_ floor: Floor) {
        id = floor.id
        building = floor.building
        name = floor.name
        level = floor.level
        metresPerPixel = floor.scale?.metresPerPixel
        originX = floor.scale?.originX
        originY = floor.scale?.originY
    }

    init(new: NewFloor, building: String, level: Int) {
        self.building = building
        name = new.name
        self.level = level
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        building = try row.string("building")
        name = try row.string("name")
        level = try row.int("level")
        metresPerPixel = try row.optionalDouble("metres_per_pixel")
        originX = try row.optionalDouble("origin_x")
        originY = try row.optionalDouble("origin_y")
    }

    /// Floors with their plan's format and size, ordered by building, level and ID, on either
    /// database. `filter` is an SQL condition on `floor` with a `?` per value, or empty for all.
    static func fetchFloors(_ sql: any StoreTransaction, filter: String = "", values: [StoreValue] = []) throws -> [Floor] {
        let condition = filter.isEmpty ? "" : "WHERE \(filter)"
        return try sql.rows("""
            SELECT floor.id, floor.building, floor.name, floor.level, floor.metres_per_pixel, floor.origin_x, floor.origin_y,
                floor_plan.format AS plan_format, length(floor_plan.image) AS plan_bytes
            FROM floor LEFT JOIN floor_plan ON floor_plan.floor_id = floor.id
            \(condition)
            ORDER BY floor.building, floor.level, floor.id
            """, values).map { row in
            try FloorRecord(row: row).floor(planFormat: row.optionalString("plan_format"), planBytes: row.optionalInt("plan_bytes"))
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    static func fetchFloor(_ sql: any StoreTransaction, id: Int64) throws -> Floor {
        guard let floor = try fetchFloors(sql, filter: "floor.id = ?", values: [.integer(id)]).first else {
            throw StoreError.notFound("no floor \(id)")
        }
        return floor
    }

    static func exists(_ sql: any StoreTransaction, id: Int64) throws -> Bool {
        try sql.row("SELECT id FROM floor WHERE id = ?", [.integer(id)]) != nil
    }

    /// A plan format switchd does not know, or a partial scale, reads as none.
    private func floor(planFormat: String?, planBytes: Int?) -> Floor {
        var floor = Floor(id: id ?? 0, building: building, name: name, level: level)
        if let metresPerPixel, let originX, let originY {
            floor.scale = PlanScale(metresPerPixel: metresPerPixel, originX: originX, originY: originY)
        }
        if let planFormat, let format = PlanImageFormat(rawValue: planFormat), let planBytes {
            floor.plan = FloorPlanInfo(contentType: format.mediaType, bytes: planBytes)
        }
        return floor
    }
}
