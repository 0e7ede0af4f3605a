import Positioning

/// Puts a walk's scan cycles on its segment (docs/survey-quality.md, "Walk survey"): every cycle
/// still stored at the start location under the walk's revision becomes a walk point (a location)
/// at the point of the segment where the admin was when it was taken, and its readings move
/// there; a cycle taken before the start or after the arrival keeps its readings but leaves the
/// survey (its location becomes NULL). Runs at arrival and again for each batch of the walk that
/// arrives later, so a slow upload is placed too; a cycle already placed gains the late part of
/// its readings at its point.
enum WalkPlacement {
    /// Places what is not placed yet of a walk that has arrived, on either database. Moves the
    /// survey version when anything moved. Does nothing for a walk still walking. The caller
    /// holds the survey's lock (it adds walk points, as every survey write does).
    static func place(_ walk: WalkRecord, in sql: any StoreTransaction) throws {
        guard let walkID = walk.id, let arrivedMs = walk.arrivedMs, let from = walk.fromLocationID else { return }
        let revision = StoreValue.integer(Int64(walk.revision))
        // AVG is numeric on PostgreSQL: cast to the double both databases read.
        let cycles = try sql.rows("""
            SELECT scan, CAST(AVG(time_ms) AS DOUBLE PRECISION) AS time_ms FROM measurement
            WHERE location_id = ? AND scanner_id = ? AND revision = ? GROUP BY scan ORDER BY scan
            """, [.integer(from), .text(walk.scannerID), revision])
        guard !cycles.isEmpty else { return }
        // How far the scanner's clock is behind switchd's, from every batch of the walk placed or
        // not: the least of "received" − "newest reading", as upload delay only adds to it.
        let offsetMs = try sql.row("""
            SELECT MIN(batch.received_ms - newest.time_ms) AS offset_ms FROM batch
            JOIN (SELECT batch_id, MAX(time_ms) AS time_ms FROM measurement
                  WHERE (location_id = ? OR location_id IN (SELECT id FROM location WHERE walk_id = ?))
                  AND scanner_id = ? AND revision = ? GROUP BY batch_id) AS newest
            ON newest.batch_id = batch.id
            """, [.integer(from), .integer(walkID), .text(walk.scannerID), revision])?.optionalDouble("offset_ms") ?? 0
        let segment = WalkSegment(
            start: (walk.startX, walk.startY), end: (walk.endX, walk.endY),
            startTime: Double(walk.startedMs) - offsetMs, endTime: Double(arrivedMs) - offsetMs
        )
        var dropped = 0
        for cycle in cycles {
            let scan = try cycle.int("scan")
            let point = segment.position(at: try cycle.double("time_ms"))
            let pointID = try point.map { try self.point(of: walk, walkID: walkID, scan: scan, at: $0, in: sql) }
            if pointID == nil { dropped += 1 }
            try sql.execute("""
                UPDATE measurement SET location_id = ? WHERE location_id = ? AND scanner_id = ? AND revision = ? AND scan = ?
                """, [StoreValue(pointID), .integer(from), .text(walk.scannerID), revision, StoreValue(scan)])
        }
        try sql.execute("UPDATE walk SET dropped_cycles = dropped_cycles + ? WHERE id = ?", [StoreValue(dropped), .integer(walkID)])
        try SurveyVersionRecord.bump(sql)
    }

    /// The walk point of cycle `scan`: the one made for it before, or a new one at `position`.
    private static func point(
        of walk: WalkRecord, walkID: Int64, scan: Int, at position: (x: Double, y: Double), in sql: any StoreTransaction
    ) throws -> Int64 {
        if let existing = try sql.row("SELECT id FROM location WHERE walk_id = ? AND walk_scan = ?", [.integer(walkID), StoreValue(scan)]) {
            return try existing.int64("id")
        }
        guard let inserted = try sql.row("""
            INSERT INTO location (room_id, name, x, y, walk_id, walk_scan) VALUES (?, ?, ?, ?, ?, ?) RETURNING id
            """, [
                .integer(walk.roomID), .text("Walk \(walkID) · cycle \(scan)"), .real(position.x), .real(position.y), .integer(walkID),
                StoreValue(scan),
            ]) else { throw StoreError.corruptRow("inserting a walk point returned no ID") }
        return try inserted.int64("id")
    }
}
