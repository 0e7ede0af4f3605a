import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// The location's name defaults to "x,y".
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming `roomID` for an unknown room, or the
    ///   coordinate or name that is out of range.
    func createLocation(_ new: NewLocation) async throws -> Location {
        try validate(new.validate)
        let name = new.name ?? "\(Self.coordinateText(new.x)),\(Self.coordinateText(new.y))"
        return try await writer.write { db in
            guard let floorID = try Int64.fetchOne(db, sql: "SELECT floor_id FROM room WHERE id = ?", arguments: [new.roomID]) else {
                throw StoreError.invalidField(ValidationError(field: "roomID", reason: "no room \(new.roomID)"))
            }
            try db.execute(
                sql: "INSERT INTO location (room_id, name, x, y) VALUES (?, ?, ?, ?)",
                arguments: [new.roomID, name, new.x, new.y]
            )
            return Location(id: db.lastInsertedRowID, roomID: new.roomID, floorID: floorID, name: name, x: new.x, y: new.y)
        }
    }

    /// All locations, or those of one room or one floor (both: those in both).
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `roomID` or `floorID` names nothing.
    func locations(inRoom roomID: Int64?, onFloor floorID: Int64?) async throws -> [Location] {
        try await writer.read { db in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if let roomID {
                guard try Self.roomExists(roomID, in: db) else { throw StoreError.notFound("no room \(roomID)") }
                conditions.append("location.room_id = ?")
                arguments += [roomID]
            }
            if let floorID {
                guard try Self.floorExists(floorID, in: db) else {
                    throw StoreError.notFound("no floor \(floorID)")
                }
                conditions.append("room.floor_id = ?")
                arguments += [floorID]
            }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            return try Row.fetchAll(db, sql: "\(Self.locationSelect) \(filter) ORDER BY location.id", arguments: arguments)
                .map(Self.location(from:))
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown location.
    func location(_ id: Int64) async throws -> Location {
        try await writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "\(Self.locationSelect) WHERE location.id = ?", arguments: [id]) else {
                throw StoreError.notFound("no location \(id)")
            }
            return Self.location(from: row)
        }
    }

    /// Deletes the location and its measurements.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown location.
    func deleteLocation(_ id: Int64, at now: Date) async throws -> Deletion {
        try await writer.write { db in
            let turnedOff = try Self.turnOffSwitches(inRooms: [], orLocations: [id], at: now, in: db)
            try db.execute(sql: "DELETE FROM location WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw StoreError.notFound("no location \(id)") }
            return Deletion(switchesTurnedOff: turnedOff)
        }
    }
}
