import Foundation
import GRDB
import Scan

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

    static func floor(from row: Row) -> Floor {
        Floor(id: row[0], building: row[1], name: row[2], level: row[3])
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
