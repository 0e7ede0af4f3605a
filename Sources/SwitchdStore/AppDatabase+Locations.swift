import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// The location's name defaults to "x,y".
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming `roomID` for an unknown room, or the
    ///   coordinate or name that is out of range.
    package func createLocation(_ new: NewLocation) async throws -> Location {
        try validate(new.validate)
        let name = new.name ?? "\(Self.coordinateText(new.x)),\(Self.coordinateText(new.y))"
        return try await write { db in
            guard let room = try RoomRecord.fetchOne(db, key: new.roomID) else {
                throw StoreError.invalidField(ValidationError(field: "roomID", reason: "no room \(new.roomID)"))
            }
            var record = LocationRecord(roomID: new.roomID, name: name, x: new.x, y: new.y)
            try record.insert(db)
            return try GeoFrames.load(db).place(record.location(floorID: room.floorID))
        }
    }

    /// All locations, or those of one room or one floor (both: those in both), ordered by ID.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `roomID` or `floorID` names nothing.
    package func locations(inRoom roomID: Int64?, onFloor floorID: Int64?) async throws -> [Location] {
        try await read { db in
            var conditions = SQLConditions()
            if let roomID {
                guard try RoomRecord.exists(db, key: roomID) else { throw StoreError.notFound("no room \(roomID)") }
                conditions.add("location.room_id = ?", roomID)
            }
            if let floorID {
                guard try FloorRecord.exists(db, key: floorID) else { throw StoreError.notFound("no floor \(floorID)") }
                conditions.add("room.floor_id = ?", floorID)
            }
            let frames = try GeoFrames.load(db)
            return try LocationRecord.fetchLocations(db, filter: conditions.sql, arguments: conditions.arguments).map(frames.place)
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown location.
    package func location(_ id: Int64) async throws -> Location {
        try await read { db in try Self.placedLocation(id, in: db) }
    }

    /// Deletes the location and its measurements.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown location.
    package func deleteLocation(_ id: Int64, at now: Date) async throws -> Deletion {
        try await write { db in
            let turnedOff = try Self.turnOffSwitches(inRooms: [], orLocations: [id], at: now, in: SQLiteTransaction(db: db))
            guard try LocationRecord.deleteOne(db, key: id) else { throw StoreError.notFound("no location \(id)") }
            return Deletion(switchesTurnedOff: turnedOff)
        }
    }

    /// The location with its latitude and longitude when its floor is geo-referenced.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown location.
    static func placedLocation(_ id: Int64, in db: Database) throws -> Location {
        guard let location = try LocationRecord.fetchLocations(db, filter: "location.id = ?", arguments: [id]).first else {
            throw StoreError.notFound("no location \(id)")
        }
        return try GeoFrames.load(db).place(location)
    }

    /// `2.5` for 2.5, `3` for 3.0: the default location name reads like the coordinates typed.
    static func coordinateText(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
