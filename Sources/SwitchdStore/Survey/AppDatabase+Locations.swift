import Foundation
import ScanContract

extension AppDatabase {
    /// The location's name defaults to "x,y". Given `floorID` instead of `roomID`, its room is the
    /// one whose outline holds it (``RoomOutlines``: the smallest).
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming `roomID` for an unknown room, both or
    ///   neither of `roomID` and `floorID`, or a point no outline of the floor holds; `floorID`
    ///   for an unknown floor; the coordinate or name that is out of range.
    package func createLocation(_ new: NewLocation) async throws -> Location {
        try validate(new.validate)
        let name = new.name ?? "\(Self.coordinateText(new.x)),\(Self.coordinateText(new.y))"
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            let roomID = try new.roomID ?? Self.outlinedRoom(holding: new, in: sql)
            guard let room = try RoomRecord.fetchRoom(sql, id: roomID) else {
                throw StoreError.invalidField(ValidationError(field: "roomID", reason: "no room \(roomID)"))
            }
            guard let row = try sql.row(
                "INSERT INTO location (room_id, name, x, y) VALUES (?, ?, ?, ?) RETURNING id",
                [.integer(roomID), .text(name), .real(new.x), .real(new.y)]
            ) else { throw StoreError.corruptRow("inserting a location returned no row") }
            let location = Location(id: try row.int64("id"), roomID: room.id, floorID: room.floorID, name: name, x: new.x, y: new.y)
            return try GeoFrames.load(sql).place(location)
        }
    }

    /// All locations, or those of one room or one floor (both: those in both), ordered by ID.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `roomID` or `floorID` names nothing.
    package func locations(inRoom roomID: Int64?, onFloor floorID: Int64?) async throws -> [Location] {
        try await readStatements { sql in
            var conditions = StoreConditions()
            if let roomID {
                guard try RoomRecord.fetchRoom(sql, id: roomID) != nil else { throw StoreError.notFound("no room \(roomID)") }
                conditions.add("location.room_id = ?", .integer(roomID))
            }
            if let floorID {
                guard try FloorRecord.exists(sql, id: floorID) else { throw StoreError.notFound("no floor \(floorID)") }
                conditions.add("room.floor_id = ?", .integer(floorID))
            }
            let frames = try GeoFrames.load(sql)
            return try LocationRecord.fetchLocations(sql, filter: conditions.sql, values: conditions.values).map(frames.place)
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown location.
    package func location(_ id: Int64) async throws -> Location {
        try await readStatements { sql in try Self.placedLocation(id, in: sql) }
    }

    /// Deletes the location and its measurements.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown location.
    package func deleteLocation(_ id: Int64, at now: Date) async throws -> Deletion {
        try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            return try Self.deletingPlaces(rooms: [], locations: [id], at: now, in: sql) {
                guard try sql.execute("DELETE FROM location WHERE id = ?", [.integer(id)]) > 0 else {
                    throw StoreError.notFound("no location \(id)")
                }
            }
        }
    }

    /// The location with its latitude and longitude when its floor is geo-referenced.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown location.
    static func placedLocation(_ id: Int64, in sql: any StoreTransaction) throws -> Location {
        guard let location = try LocationRecord.fetchLocation(sql, id: id) else { throw StoreError.notFound("no location \(id)") }
        return try GeoFrames.load(sql).place(location)
    }

    /// `2.5` for 2.5, `3` for 3.0: the default location name reads like the coordinates typed.
    static func coordinateText(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The room whose outline holds the new location's point on its `floorID`.
    private static func outlinedRoom(holding new: NewLocation, in sql: any StoreTransaction) throws -> Int64 {
        let floorID = new.floorID ?? 0
        guard try FloorRecord.exists(sql, id: floorID) else {
            throw StoreError.invalidField(ValidationError(field: "floorID", reason: "no floor \(floorID)"))
        }
        guard let roomID = try roomOutlines(onFloor: floorID, in: sql).room(atX: new.x, y: new.y) else {
            throw StoreError.invalidField(ValidationError(
                field: "roomID", reason: "no room's outline on floor \(floorID) holds (\(new.x), \(new.y)): give roomID, or draw the room first"
            ))
        }
        return roomID
    }
}
