import GRDB
import Positioning

/// Puts a walk's scan cycles on its segment (docs/survey-quality.md, "Walk survey"): every cycle
/// still stored at the start location under the walk's revision becomes a walk point (a location)
/// at the point of the segment where the admin was when it was taken, and its readings move
/// there; a cycle taken before the start or after the arrival keeps its readings but leaves the
/// survey (its location becomes NULL). Runs at arrival and again for each batch of the walk that
/// arrives later, so a slow upload is placed too; a cycle already placed gains the late part of
/// its readings at its point.
enum WalkPlacement {
    /// Places what is not placed yet of a walk that has arrived. Moves the survey version when
    /// anything moved. Does nothing for a walk still walking.
    static func place(_ walk: WalkRecord, in db: Database) throws {
        guard let walkID = walk.id, let arrivedMs = walk.arrivedMs, let from = walk.fromLocationID else { return }
        let cycles = try Row.fetchAll(db, sql: """
            SELECT scan, AVG(time_ms) AS time_ms FROM measurement
            WHERE location_id = ? AND scanner_id = ? AND revision = ? GROUP BY scan ORDER BY scan
            """, arguments: [from, walk.scannerID, walk.revision])
        guard !cycles.isEmpty else { return }
        // How far the scanner's clock is behind switchd's, from every batch of the walk placed or
        // not: the least of "received" − "newest reading", as upload delay only adds to it.
        let offsetMs = try Double.fetchOne(db, sql: """
            SELECT MIN(batch.received_ms - newest.time_ms) FROM batch
            JOIN (SELECT batch_id, MAX(time_ms) AS time_ms FROM measurement
                  WHERE (location_id = ? OR location_id IN (SELECT id FROM location WHERE walk_id = ?))
                  AND scanner_id = ? AND revision = ? GROUP BY batch_id) AS newest
            ON newest.batch_id = batch.id
            """, arguments: [from, walkID, walk.scannerID, walk.revision]) ?? 0
        let segment = WalkSegment(
            start: (walk.startX, walk.startY), end: (walk.endX, walk.endY),
            startTime: Double(walk.startedMs) - offsetMs, endTime: Double(arrivedMs) - offsetMs
        )
        var dropped = 0
        for cycle in cycles {
            let scan: Int = cycle["scan"]
            let point = segment.position(at: cycle["time_ms"])
            let pointID = try point.map { try self.point(of: walk, walkID: walkID, scan: scan, at: $0, in: db) }
            if pointID == nil { dropped += 1 }
            try db.execute(sql: """
                UPDATE measurement SET location_id = ? WHERE location_id = ? AND scanner_id = ? AND revision = ? AND scan = ?
                """, arguments: [pointID, from, walk.scannerID, walk.revision, scan])
        }
        try db.execute(sql: "UPDATE walk SET dropped_cycles = dropped_cycles + ? WHERE id = ?", arguments: [dropped, walkID])
        try db.execute(sql: "UPDATE survey_version SET version = version + 1 WHERE id = 1")
    }

    /// The walk point of cycle `scan`: the one made for it before, or a new one at `position`.
    private static func point(of walk: WalkRecord, walkID: Int64, scan: Int, at position: (x: Double, y: Double), in db: Database) throws -> Int64 {
        if let existing = try Int64.fetchOne(db, sql: "SELECT id FROM location WHERE walk_id = ? AND walk_scan = ?", arguments: [walkID, scan]) {
            return existing
        }
        var record = LocationRecord(
            roomID: walk.roomID, name: "Walk \(walkID) · cycle \(scan)", x: position.x, y: position.y, walkID: walkID, walkScan: scan
        )
        try record.insert(db)
        return record.id ?? db.lastInsertedRowID
    }
}
