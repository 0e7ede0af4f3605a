import Foundation
import GRDB
import ScanContract

/// What a delete changed besides the deleted rows: switches that pointed into the deleted part
/// of the survey are turned off and cleared, as new revisions, so scanners stop surveying it.
struct Deletion: Sendable {
    var switchesTurnedOff: [ScanSwitch]
}

extension AppDatabase {
    static func floorExists(_ id: Int64, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM floor WHERE id = ?)", arguments: [id]) ?? false
    }

    static func roomExists(_ id: Int64, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM room WHERE id = ?)", arguments: [id]) ?? false
    }

    static func roomID(ofLocation id: Int64, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT room_id FROM location WHERE id = ?", arguments: [id])
    }

    /// Turns off and clears the switches whose current revision points at one of these rooms or
    /// locations; they would otherwise keep pointing at a place that no longer exists.
    static func turnOffSwitches(inRooms rooms: Set<Int64>, orLocations locations: Set<Int64>, at now: Date, in db: Database) throws -> [ScanSwitch] {
        var turnedOff: [ScanSwitch] = []
        for current in try currentSwitches(in: db) {
            let pointsInside = current.roomID.map(rooms.contains) == true || current.locationID.map(locations.contains) == true
            guard pointsInside else { continue }
            let next = try current.applying(SwitchPatch(scanning: false, roomID: .set(nil), locationID: .set(nil)), at: now)
            if next.revision != current.revision {
                try insertRevision(next, in: db)
                turnedOff.append(next)
            }
        }
        return turnedOff
    }

    static let locationSelect = """
        SELECT location.id, location.room_id, room.floor_id, location.name, location.x, location.y
        FROM location JOIN room ON room.id = location.room_id
        """

    /// Read by ``floor(from:)``: the floor with its scale and what its plan is.
    static let floorSelect = """
        SELECT floor.id, floor.building, floor.name, floor.level,
               floor.metres_per_pixel, floor.origin_x, floor.origin_y, floor_plan.format, length(floor_plan.image)
        FROM floor LEFT JOIN floor_plan ON floor_plan.floor_id = floor.id
        """

    /// A row of ``floorSelect``. A plan format switchd does not know, or a partial scale, reads as none.
    static func floor(from row: Row) -> Floor {
        var floor = Floor(id: row[0], building: row[1], name: row[2], level: row[3])
        if let metresPerPixel: Double = row[4], let originX: Double = row[5], let originY: Double = row[6] {
            floor.scale = PlanScale(metresPerPixel: metresPerPixel, originX: originX, originY: originY)
        }
        if let formatName: String = row[7], let format = PlanImageFormat(rawValue: formatName), let bytes: Int = row[8] {
            floor.plan = FloorPlanInfo(contentType: format.mediaType, bytes: bytes)
        }
        return floor
    }

    static func room(from row: Row) -> Room {
        Room(id: row[0], floorID: row[1], name: row[2])
    }

    static func location(from row: Row) -> Location {
        Location(id: row[0], roomID: row[1], floorID: row[2], name: row[3], x: row[4], y: row[5])
    }

    /// `2.5` for 2.5, `3` for 3.0: the default location name reads like the coordinates typed.
    static func coordinateText(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Runs a `New…` type's own check, as a store error.
    func validate(_ check: () throws(ValidationError) -> Void) throws {
        do {
            try check()
        } catch {
            throw StoreError.invalidField(error)
        }
    }
}
