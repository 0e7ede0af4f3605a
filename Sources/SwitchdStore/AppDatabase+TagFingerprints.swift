import Foundation
import GRDB
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
        try await read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT s.beacon_id, s.window_end_ms, s.scanner_id, \(statistic.sql(sighting: "s")) AS rssi, b.floor_id, b.x, b.y, b.z, b.measured_power
                FROM sighting s JOIN beacon b ON b.id = s.beacon_id
                JOIN scanner_placement p ON p.scanner_id = s.scanner_id
                ORDER BY s.beacon_id, s.window_end_ms
                """)
            var points: [TagReferencePoint] = []
            var current: (beacon: Int64, end: Int64)?
            while let row = try rows.next() {
                let beacon: Int64 = row["beacon_id"], end: Int64 = row["window_end_ms"]
                let loss = Double(row["measured_power"] as Int) - (row["rssi"] as Double)
                if current?.beacon != beacon {
                    points.append(TagReferencePoint(floorID: row["floor_id"], x: row["x"], y: row["y"], height: row["z"], windows: []))
                }
                if current?.beacon != beacon || current?.end != end { points[points.count - 1].windows.append([:]) }
                points[points.count - 1].windows[points[points.count - 1].windows.count - 1][row["scanner_id"]] = loss
                current = (beacon, end)
            }
            return points
        }
    }

    /// The beacon table's ``BeaconTableSignature``: a cached fingerprint map stays valid while
    /// it and the beacon sightings are unchanged.
    package func beaconTableSignature() async throws -> BeaconTableSignature {
        try await read { db in
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), TOTAL(id), TOTAL(floor_id), TOTAL(x), TOTAL(y), TOTAL(measured_power) FROM beacon")
            guard let row else { return BeaconTableSignature(count: 0, totals: []) }
            return BeaconTableSignature(count: row[0], totals: (1..<6).map { row[$0] })
        }
    }
}
