import Foundation
import Positioning

/// What the beacon table holds, in a few numbers: equal while no beacon was added, moved,
/// re-powered or deleted, and no tag reference point was added, deleted or given a window.
package struct BeaconTableSignature: Hashable, Sendable {
    var count: Int
    var totals: [Double]
}

extension AppDatabase {
    /// The fixed scanners' fingerprint map: every registered beacon that placed scanners heard,
    /// at its position, with one window per stored window end (scanner → beacon's measured power
    /// − the window's `statistic`); then the points recorded with a tag held at a spot
    /// (``createTagReference(_:for:at:)``), the same way from the tag's power when recorded.
    package func tagReferencePoints(reading statistic: TagRSSIStatistic) async throws -> [TagReferencePoint] {
        try await readStatements { sql in
            let beacons = try sql.rows("""
                SELECT s.beacon_id AS point, s.window_end_ms, s.scanner_id, b.measured_power - \(statistic.sql(sighting: "s")) AS loss,
                       b.floor_id, b.x, b.y, b.z
                FROM sighting s JOIN beacon b ON b.id = s.beacon_id
                JOIN scanner_placement p ON p.scanner_id = s.scanner_id
                ORDER BY s.beacon_id, s.window_end_ms
                """, [])
            return try Self.referencePoints(grouping: beacons) + Self.referencePoints(grouping: TagReferenceRecord.windows(sql, reading: statistic))
        }
    }

    /// Rows of (`point`, `window_end_ms`, `scanner_id`, `loss`, `floor_id`, `x`, `y`, `z`), ordered
    /// by point and window end, as one reference point per point with one window per window end.
    static func referencePoints(grouping rows: [StoreRow]) throws -> [TagReferencePoint] {
        var points: [TagReferencePoint] = []
        var current: (point: Int64, end: Int64)?
        for row in rows {
            let point = try row.int64("point"), end = try row.int64("window_end_ms")
            if current?.point != point {
                points.append(TagReferencePoint(
                    floorID: try row.int64("floor_id"), x: try row.double("x"), y: try row.double("y"), height: try row.double("z"), windows: []
                ))
            }
            if current?.point != point || current?.end != end { points[points.count - 1].windows.append([:]) }
            points[points.count - 1].windows[points[points.count - 1].windows.count - 1][try row.string("scanner_id")] = try row.double("loss")
            current = (point, end)
        }
        return points
    }

    /// The beacon table's ``BeaconTableSignature``: a cached fingerprint map stays valid while
    /// it and the beacon sightings are unchanged.
    package func beaconTableSignature() async throws -> BeaconTableSignature {
        try await readStatements { sql in
            let totals = ["id", "floor_id", "x", "y", "measured_power"]
            let sums = totals.map { "COALESCE(SUM(CAST(\($0) AS DOUBLE PRECISION)), 0) AS \($0)" }.joined(separator: ", ")
            guard let row = try sql.row("SELECT COUNT(*) AS count, \(sums) FROM beacon", []) else { return BeaconTableSignature(count: 0, totals: []) }
            return BeaconTableSignature(
                count: try row.int("count"), totals: try totals.map { try row.double($0) } + TagReferenceRecord.signatureTotals(sql)
            )
        }
    }
}
