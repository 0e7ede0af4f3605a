import Foundation
import ScanContract

extension AppDatabase {
    /// - Throws: ``StoreError/invalidField(_:)`` naming `floorID` for an unknown floor, or `name`.
    package func createRoom(_ new: NewRoom) async throws -> Room {
        try validate(new.validate)
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            guard try FloorRecord.exists(sql, id: new.floorID) else {
                throw StoreError.invalidField(ValidationError(field: "floorID", reason: "no floor \(new.floorID)"))
            }
            guard let row = try sql.row(
                "INSERT INTO room (floor_id, name) VALUES (?, ?) RETURNING id, floor_id, name", [.integer(new.floorID), .text(new.name)]
            ) else { throw StoreError.corruptRow("inserting a room returned no row") }
            return try RoomRecord(row: row).room
        }
    }

    /// All rooms, or those of one floor, ordered by ID.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `floorID` names no floor.
    package func rooms(onFloor floorID: Int64?) async throws -> [Room] {
        try await readStatements { sql in
            guard let floorID else { return try RoomRecord.fetchRooms(sql) }
            guard try FloorRecord.exists(sql, id: floorID) else { throw StoreError.notFound("no floor \(floorID)") }
            return try RoomRecord.fetchRooms(sql, filter: "floor_id = ?", values: [.integer(floorID)])
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room.
    package func room(_ id: Int64) async throws -> Room {
        try await readStatements { sql in try Self.room(id, in: sql) }
    }

    /// Renames the room when the patch gives a name, and returns it as it now is.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room; ``StoreError/invalidField(_:)`` for a bad name.
    package func updateRoom(_ id: Int64, with patch: RoomPatch) async throws -> Room {
        try validate(patch.validate)
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            if let name = patch.name {
                try sql.execute("UPDATE room SET name = ? WHERE id = ?", [.text(name), .integer(id)])
            }
            return try Self.room(id, in: sql)
        }
    }

    /// Deletes the room with its locations, their measurements and its outline.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room.
    package func deleteRoom(_ id: Int64, at now: Date) async throws -> Deletion {
        defer { outlineCache.empty() }
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            try Self.announceOutlineChange(in: sql)
            let locations = try Set(LocationRecord.fetchLocations(sql, filter: "location.room_id = ?", values: [.integer(id)]).map(\.id))
            return try Self.deletingPlaces(rooms: [id], locations: locations, at: now, in: sql) {
                guard try sql.execute("DELETE FROM room WHERE id = ?", [.integer(id)]) > 0 else { throw StoreError.notFound("no room \(id)") }
            }
        }
    }

    /// Deletes the measurements taken in the room, keeping the room and its locations, so the
    /// room can be surveyed again.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room.
    package func clearRoom(_ id: Int64) async throws -> ClearedRoom {
        try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            _ = try Self.room(id, in: sql)
            var deleted = 0
            try Self.keepingMeasurementFeedEnd(in: sql) {
                deleted = try sql.execute(
                    "DELETE FROM measurement WHERE room_id = ? OR location_id IN (SELECT id FROM location WHERE room_id = ?)",
                    [.integer(id), .integer(id)]
                )
            }
            return ClearedRoom(roomID: id, measurementsDeleted: deleted)
        }
    }

    private static func room(_ id: Int64, in sql: any StoreTransaction) throws -> Room {
        guard let room = try RoomRecord.fetchRoom(sql, id: id) else { throw StoreError.notFound("no room \(id)") }
        return room
    }
}
