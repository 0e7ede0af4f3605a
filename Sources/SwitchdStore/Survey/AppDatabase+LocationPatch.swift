import ScanContract

extension AppDatabase {
    /// Moves or renames a location: the fields the patch gives change, its fingerprint (its
    /// measurements) stays with it, and readings tagged with its old room follow it to the new
    /// one. Links keep the distances they were given or computed when made.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown location; ``StoreError/invalidField(_:)``
    ///   naming `roomID` for an unknown room or one on another floor (a location moves within its
    ///   floor, so its links stay walkable), or the name or coordinate that is out of range.
    package func updateLocation(_ id: Int64, with patch: LocationPatch) async throws -> Location {
        try validate(patch.validate)
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            guard var location = try LocationRecord.fetchLocation(sql, id: id) else { throw StoreError.notFound("no location \(id)") }
            if let roomID = patch.roomID, roomID != location.roomID {
                guard let room = try RoomRecord.fetchRoom(sql, id: roomID) else {
                    throw StoreError.invalidField(ValidationError(field: "roomID", reason: "no room \(roomID)"))
                }
                guard room.floorID == location.floorID else {
                    throw StoreError.invalidField(ValidationError(
                        field: "roomID", reason: "room \(roomID) is on floor \(room.floorID); a location moves within its floor \(location.floorID)"
                    ))
                }
                try sql.execute("UPDATE measurement SET room_id = ? WHERE location_id = ?", [.integer(roomID), .integer(id)])
                location.roomID = roomID
            }
            location.name = patch.name ?? location.name
            location.x = patch.x ?? location.x
            location.y = patch.y ?? location.y
            try sql.execute(
                "UPDATE location SET room_id = ?, name = ?, x = ?, y = ? WHERE id = ?",
                [.integer(location.roomID), .text(location.name), .real(location.x), .real(location.y), .integer(id)]
            )
            return try GeoFrames.load(sql).place(location)
        }
    }
}
