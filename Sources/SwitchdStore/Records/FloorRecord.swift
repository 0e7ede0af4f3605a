import GRDB
import ScanContract

/// A `floor` row. Read as a ``Floor`` through ``fetchFloors(_:filter:arguments:)``, which adds
/// what the floor's plan is.
struct FloorRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "floor"

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

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let building = Column(CodingKeys.building)
        static let level = Column(CodingKeys.level)
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

    /// Floors with their plan's format and size, ordered by building, level and ID. `filter` is
    /// an SQL condition on `floor`, or empty for all.
    static func fetchFloors(_ db: Database, filter: String = "", arguments: StatementArguments = []) throws -> [Floor] {
        let condition = filter.isEmpty ? "" : "WHERE \(filter)"
        return try Row.fetchAll(db, sql: """
            SELECT floor.*, floor_plan.format AS plan_format, length(floor_plan.image) AS plan_bytes
            FROM floor LEFT JOIN floor_plan ON floor_plan.floor_id = floor.id
            \(condition)
            ORDER BY floor.building, floor.level, floor.id
            """, arguments: arguments).map { row in
            try FloorRecord(row: row).floor(planFormat: row["plan_format"], planBytes: row["plan_bytes"])
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    static func fetchFloor(_ db: Database, id: Int64) throws -> Floor {
        guard let floor = try fetchFloors(db, filter: "floor.id = ?", arguments: [id]).first else {
            throw StoreError.notFound("no floor \(id)")
        }
        return floor
    }

    static func exists(_ db: Database, id: Int64) throws -> Bool {
        try FloorRecord.exists(db, key: id)
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
