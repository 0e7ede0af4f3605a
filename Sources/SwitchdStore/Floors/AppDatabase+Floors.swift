import Foundation
import ScanContract

extension AppDatabase {
    /// The building a floor is in, and its storey, when none is given.
    package static let defaultBuilding = "main"
    package static let defaultLevel = 0

    /// - Throws: ``StoreError/invalidField(_:)`` for an empty or overlong name or building.
    package func createFloor(_ new: NewFloor) async throws -> Floor {
        try validate(new.validate)
        let building = new.building ?? Self.defaultBuilding
        let level = new.level ?? Self.defaultLevel
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            guard let row = try sql.row(
                "INSERT INTO floor (building, name, level) VALUES (?, ?, ?) RETURNING id", [.text(building), .text(new.name), .integer(Int64(level))]
            ) else { throw StoreError.corruptRow("inserting a floor returned no row") }
            return Floor(id: try row.int64("id"), building: building, name: new.name, level: level)
        }
    }

    /// Every floor, ordered by building, level and ID.
    package func floors() async throws -> [Floor] {
        try await readStatements { sql in try FloorRecord.fetchFloors(sql) }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    package func floor(_ id: Int64) async throws -> Floor {
        try await readStatements { sql in try FloorRecord.fetchFloor(sql, id: id) }
    }

    /// Changes the fields the patch gives and returns the floor as it now is.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor; ``StoreError/invalidField(_:)``
    ///   for a bad name, building or scale.
    package func updateFloor(_ id: Int64, with patch: FloorPatch) async throws -> Floor {
        try validate(patch.validate)
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            var floor = try FloorRecord.fetchFloor(sql, id: id)
            floor.building = patch.building ?? floor.building
            floor.name = patch.name ?? floor.name
            floor.level = patch.level ?? floor.level
            floor.scale = patch.scale.applied(to: floor.scale)
            let record = FloorRecord(floor)
            try Self.announceWatchedChange(in: sql)
            try sql.execute(
                "UPDATE floor SET building = ?, name = ?, level = ?, metres_per_pixel = ?, origin_x = ?, origin_y = ? WHERE id = ?", [
                    .text(record.building), .text(record.name), .integer(Int64(record.level)),
                    StoreValue(record.metresPerPixel), StoreValue(record.originX), StoreValue(record.originY), .integer(id),
                ]
            )
            return floor
        }
    }

    /// Deletes the floor with its rooms, locations and their measurements.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor.
    package func deleteFloor(_ id: Int64, at now: Date) async throws -> Deletion {
        defer { outlineCache.empty() }
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            try Self.announceWatchedChange(in: sql)
            try Self.announceOutlineChange(in: sql)
            let rooms = try Set(RoomRecord.fetchRooms(sql, filter: "floor_id = ?", values: [.integer(id)]).map(\.id))
            let locations = try Set(LocationRecord.fetchLocations(sql, filter: "room.floor_id = ?", values: [.integer(id)]).map(\.id))
            return try Self.deletingPlaces(rooms: rooms, locations: locations, at: now, in: sql) {
                // Its tags' positions go too.
                try SequencedFeed.tagPositions.keepingEnd(in: sql) {
                    guard try sql.execute("DELETE FROM floor WHERE id = ?", [.integer(id)]) > 0 else { throw StoreError.notFound("no floor \(id)") }
                }
            }
        }
    }
}
