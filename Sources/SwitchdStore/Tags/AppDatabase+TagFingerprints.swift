import Foundation
import Positioning

/// What the beacon table holds, in a few numbers: equal while no beacon was added, moved,
/// re-powered or deleted.
package struct BeaconTableSignature: Hashable, Sendable {
    var count: Int
    var totals: [Double]
}

extension AppDatabase {
    /// The fixed scanners' fingerprint map: every registered beacon that placed scanners heard,
    /// at its position, with one window per stored window end (scanner → beacon's measured power
    /// − the window's `statistic`). A tag carried through a survey is recorded this way: a beacon
    /// registered at each stop, heard there.
    package func tagReferencePoints(reading statistic: TagRSSIStatistic) async throws -> [TagReferencePoint] {
        try await readStatements { sql in
            let rows = try sql.rows("""
                SELECT s.beacon_id, s.window_end_ms, s.scanner_id, \(statistic.sql(sighting: "s")) AS rssi, b.floor_id, b.x, b.y, b.z, b.measured_power
                FROM sighting s JOIN beacon b ON b.id = s.beacon_id
                JOIN scanner_placement p ON p.scanner_id = s.scanner_id
                ORDER BY s.beacon_id, s.window_end_ms
                """, [])
            var points: [TagReferencePoint] = []
            var current: (beacon: Int64, end: Int64)?
            for row in rows {
                let beacon = try row.int64("beacon_id"), end = try row.int64("window_end_ms")
                let loss = try row.double("measured_power") - row.double("rssi")
                if current?.beacon != beacon {
                    points.append(TagReferencePoint(
                        floorID: try row.int64("floor_id"), x: try row.double("x"), y: try row.double("y"), height: try row.double("z"), windows: []
                    ))
                }
                if current?.beacon != beacon || current?.end != end { points[points.count - 1].windows.append([:]) }
                points[points.count - 1].windows[points[points.count - 1].windows.count - 1][try row.string("scanner_id")] = loss
                current = (beacon, end)
            }
            return points
        }
    }

    /// The beacon table's ``BeaconTableSignature``: a cached fingerprint map stays valid while
    /// it and the beacon sightings are unchanged.
    package func beaconTableSignature() async throws -> BeaconTableSignature {
        try await readStatements { sql in
            let totals = ["id", "floor_id", "x", "y", "measured_power"]
            let sums = totals.map { "COALESCE(SUM(CAST(\($0) AS DOUBLE PRECISION)), 0) AS \($0)" }.joined(separator: ", ")
            guard let row = try sql.row("SELECT COUNT(*) AS count, \(sums) FROM beacon", []) else { return BeaconTableSignature(count: 0, totals: []) }
            return BeaconTableSignature(count: try row.int("count"), totals: try totals.map { try row.double($0) })
        }
    }
}
