import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// - Throws: ``StoreError/invalidField(_:)`` naming `floorID` for an unknown floor, or `name`.
    func createRoom(_ new: NewRoom) async throws -> Room {
        try validate(new.validate)
        return try await writer.write { db in
            guard try Self.floorExists(new.floorID, in: db) else {
                throw StoreError.invalidField(ValidationError(field: "floorID", reason: "no floor \(new.floorID)"))
            }
            try db.execute(sql: "INSERT INTO room (floor_id, name) VALUES (?, ?)", arguments: [new.floorID, new.name])
            return Room(id: db.lastInsertedRowID, floorID: new.floorID, name: new.name)
        }
    }

    /// All rooms, or those of one floor.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `floorID` names no floor.
    func rooms(onFloor floorID: Int64?) async throws -> [Room] {
        try await writer.read { db in
            guard let floorID else {
                return try Row.fetchAll(db, sql: "SELECT id, floor_id, name FROM room ORDER BY id").map(Self.room(from:))
            }
            guard try Self.floorExists(floorID, in: db) else {
                throw StoreError.notFound("no floor \(floorID)")
            }
            return try Row.fetchAll(db, sql: "SELECT id, floor_id, name FROM room WHERE floor_id = ? ORDER BY id", arguments: [floorID])
                .map(Self.room(from:))
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room.
    func room(_ id: Int64) async throws -> Room {
        try await writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, floor_id, name FROM room WHERE id = ?", arguments: [id]) else {
                throw StoreError.notFound("no room \(id)")
            }
            return Self.room(from: row)
        }
    }

    /// Renames the room when the patch gives a name, and returns it as it now is.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room; ``StoreError/invalidField(_:)`` for a bad name.
    func updateRoom(_ id: Int64, with patch: RoomPatch) async throws -> Room {
        try validate(patch.validate)
        return try await writer.write { db in
            if let name = patch.name {
                try db.execute(sql: "UPDATE room SET name = ? WHERE id = ?", arguments: [name, id])
            }
            guard let row = try Row.fetchOne(db, sql: "SELECT id, floor_id, name FROM room WHERE id = ?", arguments: [id]) else {
                throw StoreError.notFound("no room \(id)")
            }
            return Self.room(from: row)
        }
    }

    /// Deletes the room with its locations and their measurements.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room.
    func deleteRoom(_ id: Int64, at now: Date) async throws -> Deletion {
        try await writer.write { db in
            let locations = try Set(Int64.fetchAll(db, sql: "SELECT id FROM location WHERE room_id = ?", arguments: [id]))
            let turnedOff = try Self.turnOffSwitches(inRooms: [id], orLocations: locations, at: now, in: db)
            try db.execute(sql: "DELETE FROM room WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw StoreError.notFound("no room \(id)") }
            return Deletion(switchesTurnedOff: turnedOff)
        }
    }

    /// Deletes the measurements taken in the room, keeping the room and its locations, so the
    /// room can be surveyed again.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room.
    func clearRoom(_ id: Int64) async throws -> ClearedRoom {
        try await writer.write { db in
            guard try Self.roomExists(id, in: db) else { throw StoreError.notFound("no room \(id)") }
            try db.execute(sql: """
                DELETE FROM measurement
                WHERE room_id = ? OR location_id IN (SELECT id FROM location WHERE room_id = ?)
                """, arguments: [id, id])
            return ClearedRoom(roomID: id, measurementsDeleted: db.changesCount)
        }
    }
}
