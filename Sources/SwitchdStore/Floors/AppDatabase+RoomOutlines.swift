import Foundation
import Positioning
import ScanContract

extension AppDatabase {
    /// Sets or replaces the room's outline and returns the room with it. The outline must be a
    /// ``RoomOutline`` that validates and a simple polygon with an area (``PlanPolygon/problem``).
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming `outline` and the problem, before anything
    ///   is written (the outline stored stays as it was); ``StoreError/notFound(_:)`` for an unknown room.
    package func setRoomOutline(_ roomID: Int64, to outline: RoomOutline) async throws -> Room {
        try validate(outline.validate)
        if let problem = PlanPolygon(outline.outline.map { PlanPolygon.Point(x: $0[0], y: $0[1]) }).problem {
            throw StoreError.invalidField(ValidationError(field: "outline", reason: problem))
        }
        let room = try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            _ = try Self.existingRoom(roomID, in: sql)
            try sql.execute("DELETE FROM room_outline_point WHERE room_id = ?", [.integer(roomID)])
            let rows = Array(repeating: "(?, ?, ?, ?)", count: outline.outline.count).joined(separator: ", ")
            let values = outline.outline.enumerated().flatMap { index, corner -> [StoreValue] in
                [.integer(roomID), .integer(Int64(index)), .real(corner[0]), .real(corner[1])]
            }
            try sql.execute("INSERT INTO room_outline_point (room_id, ordinal, x, y) VALUES \(rows)", values)
            try Self.announceOutlineChange(in: sql)
            return try Self.existingRoom(roomID, in: sql)
        }
        outlineCache.empty()
        return room
    }

    /// The room's outline.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room or one without an outline.
    package func roomOutline(_ roomID: Int64) async throws -> RoomOutline {
        try await readStatements { sql in
            guard let outline = try Self.existingRoom(roomID, in: sql).outline else {
                throw StoreError.notFound("room \(roomID) has no outline")
            }
            return RoomOutline(outline: outline)
        }
    }

    /// Deletes the room's outline, if it has one: its positions then take the room of the
    /// nearest location again, unless another outline holds them.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room.
    package func deleteRoomOutline(_ roomID: Int64) async throws {
        try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            _ = try Self.existingRoom(roomID, in: sql)
            if try sql.execute("DELETE FROM room_outline_point WHERE room_id = ?", [.integer(roomID)]) > 0 {
                try Self.announceOutlineChange(in: sql)
            }
        }
        outlineCache.empty()
    }

    /// The room of the point (x, y) on the floor by the outline rule (``RoomOutlines``): the
    /// smallest outline holding it; else the room of the nearest location; nil when the floor has
    /// neither. The outlines as ``outlinedRoom(at:_:onFloor:outlines:generation:in:)`` reads them.
    static func room(
        at x: Double, _ y: Double, onFloor floorID: Int64, outlines cache: RoomOutlineCache, generation: UInt64,
        in sql: any StoreTransaction
    ) throws -> Int64? {
        if let room = try outlinedRoom(at: x, y, onFloor: floorID, outlines: cache, generation: generation, in: sql) { return room }
        return try Self.room(nearestTo: x, y, onFloor: floorID, in: sql)
    }

    /// The room of (x, y) on the floor by the outline rule alone; nil when no outline holds it.
    /// The outlines come from `cache`, loaded in this transaction when missing and kept when
    /// `generation`, read before the transaction began, is still current.
    static func outlinedRoom(
        at x: Double, _ y: Double, onFloor floorID: Int64, outlines cache: RoomOutlineCache, generation: UInt64,
        in sql: any StoreTransaction
    ) throws -> Int64? {
        if let cached = cache.outlines(onFloor: floorID) { return cached.room(atX: x, y: y) }
        let outlines = try Self.roomOutlines(onFloor: floorID, in: sql)
        cache.keep(outlines, onFloor: floorID, generation: generation)
        return outlines.room(atX: x, y: y)
    }

    /// The outlined rooms of the floor, as stored. Whatever the rows hold, reading them cannot
    /// trap: an outline of fewer than three corners (rows deleted by hand) contains nothing.
    static func roomOutlines(onFloor floorID: Int64, in sql: any StoreTransaction) throws -> RoomOutlines {
        let rows = try sql.rows("""
            SELECT p.room_id, p.x, p.y FROM room_outline_point p JOIN room r ON r.id = p.room_id
            WHERE r.floor_id = ? ORDER BY p.room_id, p.ordinal
            """, [.integer(floorID)])
        var corners: [Int64: [PlanPolygon.Point]] = [:]
        for row in rows {
            corners[try row.int64("room_id"), default: []].append(PlanPolygon.Point(x: try row.double("x"), y: try row.double("y")))
        }
        return RoomOutlines(corners.map { RoomOutlines.Outlined(roomID: $0.key, polygon: PlanPolygon($0.value)) })
    }

    /// The public entry to ``roomOutlines(onFloor:in:)`` (the GeoJSON export, tests).
    package func roomOutlines(onFloor floorID: Int64) async throws -> RoomOutlines {
        try await readStatements { sql in try Self.roomOutlines(onFloor: floorID, in: sql) }
    }

    /// The room of (x, y) on the floor by the rule (outline first, else the nearest location),
    /// through the cache: what a position or a tag is placed in.
    package func room(at x: Double, _ y: Double, onFloor floorID: Int64) async throws -> Int64? {
        let (cache, generation) = (outlineCache, outlineCache.generation)
        return try await readStatements { sql in
            try Self.room(at: x, y, onFloor: floorID, outlines: cache, generation: generation, in: sql)
        }
    }

    /// The room whose outline holds (x, y) on the floor (``RoomOutlines``), through the cache;
    /// nil when no outline does.
    package func outlinedRoom(at x: Double, _ y: Double, onFloor floorID: Int64) async throws -> Int64? {
        let (cache, generation) = (outlineCache, outlineCache.generation)
        if let cached = cache.outlines(onFloor: floorID) { return cached.room(atX: x, y: y) }
        return try await readStatements { sql in
            try Self.outlinedRoom(at: x, y, onFloor: floorID, outlines: cache, generation: generation, in: sql)
        }
    }

    /// The channel a change of rooms' outlines is announced on (docs/scale-out.md, "Fan-out
    /// across instances"): every instance empties its ``RoomOutlineCache``.
    package static let outlinesChannel = "floorscan_outlines"

    /// Announces, when the transaction commits, that outlines changed (an outline set or
    /// deleted, a room or a floor deleted). Nothing on SQLite, whose one process empties its cache.
    /// Also a new survey version: the radio map scanners position with carries the outlines.
    static func announceOutlineChange(in sql: any StoreTransaction) throws {
        try SurveyVersionRecord.bump(sql)
        try sql.notify(outlinesChannel, "changed")
    }

    private static func existingRoom(_ id: Int64, in sql: any StoreTransaction) throws -> Room {
        guard let room = try RoomRecord.fetchRoom(sql, id: id) else { throw StoreError.notFound("no room \(id)") }
        return room
    }
}
