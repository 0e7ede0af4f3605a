import GRDB
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
        return try await write { db in
            guard var record = try LocationRecord.fetchOne(db, key: id) else { throw StoreError.notFound("no location \(id)") }
            if let roomID = patch.roomID, roomID != record.roomID {
                guard let room = try RoomRecord.fetchOne(db, key: roomID) else {
                    throw StoreError.invalidField(ValidationError(field: "roomID", reason: "no room \(roomID)"))
                }
                let floorID = try RoomRecord.fetchOne(db, key: record.roomID)?.floorID
                guard room.floorID == floorID else {
                    throw StoreError.invalidField(ValidationError(
                        field: "roomID", reason: "room \(roomID) is on floor \(room.floorID); a location moves within its floor \(floorID ?? 0)"
                    ))
                }
                try MeasurementRecord.filter(MeasurementRecord.Columns.locationID == id)
                    .updateAll(db, MeasurementRecord.Columns.roomID.set(to: roomID))
                record.roomID = roomID
            }
            record.name = patch.name ?? record.name
            record.x = patch.x ?? record.x
            record.y = patch.y ?? record.y
            try record.update(db)
            return try Self.placedLocation(id, in: db)
        }
    }
}
