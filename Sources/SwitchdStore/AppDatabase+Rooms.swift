import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// - Throws: ``StoreError/invalidField(_:)`` naming `floorID` for an unknown floor, or `name`.
    package func createRoom(_ new: NewRoom) async throws -> Room {
        try validate(new.validate)
        return try await write { db in
            guard try FloorRecord.exists(db, key: new.floorID) else {
                throw StoreError.invalidField(ValidationError(field: "floorID", reason: "no floor \(new.floorID)"))
            }
            var record = RoomRecord(new)
            try record.insert(db)
            return record.room
        }
    }

    /// All rooms, or those of one floor, ordered by ID.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `floorID` names no floor.
    package func rooms(onFloor floorID: Int64?) async throws -> [Room] {
        try await read { db in
            var request = RoomRecord.order(RoomRecord.Columns.id)
            if let floorID {
                guard try FloorRecord.exists(db, key: floorID) else { throw StoreError.notFound("no floor \(floorID)") }
                request = request.filter(RoomRecord.Columns.floorID == floorID)
            }
            return try request.fetchAll(db).map(\.room)
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room.
    package func room(_ id: Int64) async throws -> Room {
        try await read { db in try Self.room(id, in: db) }
    }

    /// Renames the room when the patch gives a name, and returns it as it now is.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room; ``StoreError/invalidField(_:)`` for a bad name.
    package func updateRoom(_ id: Int64, with patch: RoomPatch) async throws -> Room {
        try validate(patch.validate)
        return try await write { db in
            if let name = patch.name {
                try RoomRecord.filter(key: id).updateAll(db, RoomRecord.Columns.name.set(to: name))
            }
            return try Self.room(id, in: db)
        }
    }

    /// Deletes the room with its locations and their measurements.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room.
    package func deleteRoom(_ id: Int64, at now: Date) async throws -> Deletion {
        try await write { db in
            let locations = try Set(Int64.fetchAll(
                db, LocationRecord.select(LocationRecord.Columns.id).filter(LocationRecord.Columns.roomID == id)
            ))
            let turnedOff = try Self.turnOffSwitches(inRooms: [id], orLocations: locations, at: now, in: SQLiteTransaction(db: db))
            guard try RoomRecord.deleteOne(db, key: id) else { throw StoreError.notFound("no room \(id)") }
            return Deletion(switchesTurnedOff: turnedOff)
        }
    }

    /// Deletes the measurements taken in the room, keeping the room and its locations, so the
    /// room can be surveyed again.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room.
    package func clearRoom(_ id: Int64) async throws -> ClearedRoom {
        try await write { db in
            guard try RoomRecord.exists(db, key: id) else { throw StoreError.notFound("no room \(id)") }
            let locations = LocationRecord.select(LocationRecord.Columns.id).filter(LocationRecord.Columns.roomID == id)
            let deleted = try MeasurementRecord
                .filter(MeasurementRecord.Columns.roomID == id || locations.contains(MeasurementRecord.Columns.locationID))
                .deleteAll(db)
            return ClearedRoom(roomID: id, measurementsDeleted: deleted)
        }
    }

    private static func room(_ id: Int64, in db: Database) throws -> Room {
        guard let record = try RoomRecord.fetchOne(db, key: id) else { throw StoreError.notFound("no room \(id)") }
        return record.room
    }
}
