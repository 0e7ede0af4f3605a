import Foundation
import GRDB
import ScanContract

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
            try Row.fetchAll(db, sql: "\(Self.floorSelect) ORDER BY floor.building, floor.level, floor.id").map(Self.floor(from:))
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    func floor(_ id: Int64) async throws -> Floor {
        try await writer.read { db in
            try Self.floor(id, in: db)
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    static func floor(_ id: Int64, in db: Database) throws -> Floor {
        guard let row = try Row.fetchOne(db, sql: "\(floorSelect) WHERE floor.id = ?", arguments: [id]) else {
            throw StoreError.notFound("no floor \(id)")
        }
        return floor(from: row)
    }

    /// Changes the fields the patch gives and returns the floor as it now is.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor; ``StoreError/invalidField(_:)``
    ///   for a bad name, building or scale.
    func updateFloor(_ id: Int64, with patch: FloorPatch) async throws -> Floor {
        try validate(patch.validate)
        return try await writer.write { db in
            var floor = try Self.floor(id, in: db)
            floor.building = patch.building ?? floor.building
            floor.name = patch.name ?? floor.name
            floor.level = patch.level ?? floor.level
            floor.scale = patch.scale.applied(to: floor.scale)
            try db.execute(
                sql: "UPDATE floor SET building = ?, name = ?, level = ?, metres_per_pixel = ?, origin_x = ?, origin_y = ? WHERE id = ?",
                arguments: [floor.building, floor.name, floor.level, floor.scale?.metresPerPixel, floor.scale?.originX, floor.scale?.originY, id]
            )
            return floor
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
