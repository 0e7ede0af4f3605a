import Foundation
import ScanContract

extension AppDatabase {
    /// Every access point and beacon in the stored readings, ordered by their key
    /// (``EmitterSummary/emitter``), `limit` of them after the key `afterKey`; the next page's
    /// key when there are more. Wi-Fi readings are grouped by BSSID, BLE readings by beacon
    /// identity (whatever device address sent them). Adds up the `emitter_cell` rows the
    /// store's triggers keep (``SchemaEmitterSummary``): as many as emitters times the places
    /// they were heard, whatever the number of readings.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when a BLE cell holds no readable beacon identity.
    package func emitters(afterKey: String?, limit: Int) async throws -> (items: [EmitterSummary], nextKey: String?) {
        try await readStatements { sql in
            var summaries = try Self.wifiEmitters(sql) + Self.beaconEmitters(sql)
            summaries.sort { $0.emitter < $1.emitter }
            if let afterKey { summaries.removeAll { $0.emitter <= afterKey } }
            let page = Array(summaries.prefix(limit))
            return (page, summaries.count > limit ? page.last?.emitter : nil)
        }
    }

    /// The sums are cast to a 64-bit integer: PostgreSQL's `SUM` of one is `numeric`.
    private static let aggregates = """
        CAST(SUM(readings) AS BIGINT) AS readings, CAST(SUM(rssi_sum) AS BIGINT) AS rssi_sum, MAX(max_rssi) AS max_rssi,
        MIN(first_ms) AS first_ms, MAX(last_ms) AS last_ms, COUNT(DISTINCT NULLIF(location_id, 0)) AS locations
        """

    private static func wifiEmitters(_ sql: any StoreTransaction) throws -> [EmitterSummary] {
        let strongest = try strongestPlaces(sql, kind: .wifi, key: ["address"]) { row in "\(try row.int64("address"))" }
        // The SSID of each access point's latest cell: of cells as late, the first by place.
        var ssids: [Int64: (lastMs: Int64, ssid: String)] = [:]
        for row in try sql.rows("""
            SELECT address, last_ssid, last_ms FROM emitter_cell WHERE kind = 'wifi' ORDER BY address, mode, room_id, location_id
            """, []) {
            let address = try row.int64("address")
            let lastMs = try row.int64("last_ms")
            if let seen = ssids[address], seen.lastMs >= lastMs { continue }
            ssids[address] = (lastMs, try row.optionalString("last_ssid") ?? "")
        }
        return try sql.rows("SELECT address, \(aggregates) FROM emitter_cell WHERE kind = 'wifi' GROUP BY address", []).map { row in
            let address = try row.int64("address")
            let bssid = BSSID(rawValue: UInt64(bitPattern: address))
            return try summary(row, emitter: "ap:\(bssid)", kind: .wifi, strongest: strongest["\(address)"]) {
                $0.bssid = bssid.description
                $0.ssid = ssids[address]?.ssid
            }
        }
    }

    private static func beaconEmitters(_ sql: any StoreTransaction) throws -> [EmitterSummary] {
        let strongest = try strongestPlaces(sql, kind: .ble, key: ["beacon_uuid", "major", "minor"]) { row in "\(try beaconID(row))" }
        let registered = try Dictionary(BeaconRecord.fetchBeacons(sql).map { ($0.beaconID, $0.id) }, uniquingKeysWith: { a, _ in a })
        return try sql.rows("""
            SELECT beacon_uuid, major, minor, \(aggregates) FROM emitter_cell WHERE kind = 'ble' GROUP BY beacon_uuid, major, minor
            """, []).map { row in
            let beacon = try beaconID(row)
            return try summary(row, emitter: "beacon:\(beacon)", kind: .ble, strongest: strongest["\(beacon)"]) {
                $0.uuid = beacon.uuid
                $0.major = beacon.major
                $0.minor = beacon.minor
                $0.beaconID = registered[beacon]
            }
        }
    }

    /// The beacon identity of a BLE cell's row (`beacon_uuid`, `major`, `minor`).
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when the cell holds no readable identity.
    private static func beaconID(_ row: StoreRow) throws -> BeaconID {
        guard try row.bytes("beacon_uuid").count == 16, let uuid = try row.optionalUUID("beacon_uuid"),
              let major = UInt16(exactly: try row.int("major")), let minor = UInt16(exactly: try row.int("minor")) else {
            throw StoreError.corruptRow("a BLE reading holds no readable beacon identity")
        }
        return BeaconID(uuid: uuid, major: major, minor: minor)
    }

    private static func summary(
        _ row: StoreRow, emitter: String, kind: RadioKind, strongest: EmitterPlace?, fill: (inout EmitterSummary) -> Void
    ) throws -> EmitterSummary {
        let readings = try row.int("readings")
        var summary = EmitterSummary(
            emitter: emitter, kind: kind, readings: readings, meanRSSI: Double(try row.int64("rssi_sum")) / Double(readings),
            maxRSSI: try row.int("max_rssi"), firstSeen: Date(milliseconds: try row.int64("first_ms")),
            lastSeen: Date(milliseconds: try row.int64("last_ms")), locations: try row.int("locations"), strongestAt: strongest
        )
        fill(&summary)
        return summary
    }

    /// Per emitter (its `key` columns of `emitter_cell`, named by `name`): the surveyed location
    /// that heard it loudest on average; of equals, the first by location ID.
    private static func strongestPlaces(
        _ sql: any StoreTransaction, kind: RadioKind, key: [String], name: (StoreRow) throws -> String
    ) throws -> [String: EmitterPlace] {
        let columns = key.map { "emitter_cell.\($0)" }.joined(separator: ", ")
        var best: [String: EmitterPlace] = [:]
        for row in try sql.rows("""
            SELECT \(columns), emitter_cell.location_id AS location_id, location.room_id AS room_id, room.floor_id AS floor_id,
                CAST(SUM(emitter_cell.rssi_sum) AS BIGINT) AS rssi_sum, CAST(SUM(emitter_cell.readings) AS BIGINT) AS readings
            FROM emitter_cell JOIN location ON location.id = emitter_cell.location_id JOIN room ON room.id = location.room_id
            WHERE emitter_cell.kind = ? GROUP BY \(columns), emitter_cell.location_id, location.room_id, room.floor_id
            ORDER BY \(columns), emitter_cell.location_id
            """, [.text(kind.rawValue)]) {
            let readings = try row.int("readings")
            let place = EmitterPlace(
                locationID: try row.int64("location_id"), roomID: try row.int64("room_id"), floorID: try row.int64("floor_id"),
                meanRSSI: Double(try row.int64("rssi_sum")) / Double(readings), readings: readings
            )
            let key = try name(row)
            if let current = best[key], current.meanRSSI >= place.meanRSSI { continue }
            best[key] = place
        }
        return best
    }
}
