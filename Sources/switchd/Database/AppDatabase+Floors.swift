import Foundation
import GRDB
import Scan

extension AppDatabase {
    /// - Throws: ``StoreError/invalidField(_:)`` for an empty or overlong name or building.
    func createFloor(_ new: NewFloor) async throws -> Floor {
        try validate(new.validate)
        let building = new.building ?? Self.defaultBuilding
        let level = new.level ?? Self.defaultLevel
        return try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO floor (building, name, level) VALUES (?, ?, ?)",
                arguments: [building, new.name, level]
            )
            return Floor(id: db.lastInsertedRowID, building: building, name: new.name, level: level)
        }
    }

    /// The building a floor is in, and its storey, when none is given.
    static let defaultBuilding = "main"
    static let defaultLevel = 0

    func floors() async throws -> [Floor] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, building, name, level FROM floor ORDER BY building, level, id").map(Self.floor(from:))
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    func floor(_ id: Int64) async throws -> Floor {
        try await writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, building, name, level FROM floor WHERE id = ?", arguments: [id]) else {
                throw StoreError.notFound("no floor \(id)")
            }
            return Self.floor(from: row)
        }
    }

    /// Deletes the floor with its rooms, locations and their measurements.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    func deleteFloor(_ id: Int64, at now: Date) async throws -> Deletion {
        try await writer.write { db in
            let rooms = try Set(Int64.fetchAll(db, sql: "SELECT id FROM room WHERE floor_id = ?", arguments: [id]))
            let locations = try Set(Int64.fetchAll(db, sql: """
                SELECT location.id FROM location JOIN room ON room.id = location.room_id WHERE room.floor_id = ?
                """, arguments: [id]))
            let turnedOff = try Self.turnOffSwitches(inRooms: rooms, orLocations: locations, at: now, in: db)
            try db.execute(sql: "DELETE FROM floor WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw StoreError.notFound("no floor \(id)") }
            return Deletion(switchesTurnedOff: turnedOff)
        }
    }
}
