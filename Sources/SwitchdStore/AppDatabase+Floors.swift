import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// The building a floor is in, and its storey, when none is given.
    package static let defaultBuilding = "main"
    package static let defaultLevel = 0

    /// - Throws: ``StoreError/invalidField(_:)`` for an empty or overlong name or building.
    package func createFloor(_ new: NewFloor) async throws -> Floor {
        try validate(new.validate)
        return try await write { db in
            var record = FloorRecord(new: new, building: new.building ?? Self.defaultBuilding, level: new.level ?? Self.defaultLevel)
            try record.insert(db)
            return Floor(id: db.lastInsertedRowID, building: record.building, name: record.name, level: record.level)
        }
    }

    /// Every floor, ordered by building, level and ID.
    package func floors() async throws -> [Floor] {
        try await read { db in try FloorRecord.fetchFloors(db) }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    package func floor(_ id: Int64) async throws -> Floor {
        try await read { db in try FloorRecord.fetchFloor(db, id: id) }
    }

    /// Changes the fields the patch gives and returns the floor as it now is.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor; ``StoreError/invalidField(_:)``
    ///   for a bad name, building or scale.
    package func updateFloor(_ id: Int64, with patch: FloorPatch) async throws -> Floor {
        try validate(patch.validate)
        return try await write { db in
            var floor = try FloorRecord.fetchFloor(db, id: id)
            floor.building = patch.building ?? floor.building
            floor.name = patch.name ?? floor.name
            floor.level = patch.level ?? floor.level
            floor.scale = patch.scale.applied(to: floor.scale)
            try FloorRecord(floor).update(db)
            return floor
        }
    }

    /// Deletes the floor with its rooms, locations and their measurements.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    package func deleteFloor(_ id: Int64, at now: Date) async throws -> Deletion {
        try await write { db in
            let rooms = try Set(Int64.fetchAll(db, RoomRecord.select(RoomRecord.Columns.id).filter(RoomRecord.Columns.floorID == id)))
            let locations = try Set(LocationRecord.fetchLocations(db, filter: "room.floor_id = ?", arguments: [id]).map(\.id))
            let turnedOff = try Self.turnOffSwitches(inRooms: rooms, orLocations: locations, at: now, in: SQLiteTransaction(db: db))
            guard try FloorRecord.deleteOne(db, key: id) else { throw StoreError.notFound("no floor \(id)") }
            return Deletion(switchesTurnedOff: turnedOff)
        }
    }
}
