import Foundation
import GRDB
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
        try await read { db in
            var summaries = try Self.wifiEmitters(db) + Self.beaconEmitters(db)
            summaries.sort { $0.emitter < $1.emitter }
            if let afterKey { summaries.removeAll { $0.emitter <= afterKey } }
            let page = Array(summaries.prefix(limit))
            return (page, summaries.count > limit ? page.last?.emitter : nil)
        }
    }

    private static let aggregates = """
        SUM(readings) AS readings, SUM(rssi_sum) AS rssi_sum, MAX(max_rssi) AS max_rssi, MIN(first_ms) AS first_ms,
        MAX(last_ms) AS last_ms, COUNT(DISTINCT NULLIF(location_id, 0)) AS locations
        """

    private static func wifiEmitters(_ db: Database) throws -> [EmitterSummary] {
        let strongest = try strongestPlaces(db, kind: .wifi, key: "emitter_cell.address")
        // The SSID of each access point's latest cell (SQLite takes the bare column from the MAX row).
        let ssids = try Dictionary(Row.fetchAll(db, sql: """
            SELECT address, last_ssid, MAX(last_ms) FROM emitter_cell WHERE kind = 'wifi' GROUP BY address
            """).map { row -> (Int64, String) in (row["address"], row["last_ssid"] ?? "") }, uniquingKeysWith: { a, _ in a })
        return try Row.fetchAll(db, sql: "SELECT address, \(aggregates) FROM emitter_cell WHERE kind = 'wifi' GROUP BY address")
            .map { row in
                let address: Int64 = row["address"]
                let bssid = BSSID(rawValue: UInt64(bitPattern: address))
                return summary(row, emitter: "ap:\(bssid)", kind: .wifi, strongest: strongest["\(address)"]) {
                    $0.bssid = bssid.description
                    $0.ssid = ssids[address]
                }
            }
    }

    private static func beaconEmitters(_ db: Database) throws -> [EmitterSummary] {
        let strongest = try strongestPlaces(db, kind: .ble, key: "hex(emitter_cell.beacon_uuid) || '/' || emitter_cell.major || '/' || emitter_cell.minor")
        let registered = try Dictionary(BeaconRecord.fetchBeacons(SQLiteTransaction(db: db)).map { ($0.beaconID, $0.id) }, uniquingKeysWith: { a, _ in a })
        return try Row.fetchAll(db, sql: """
            SELECT NULLIF(beacon_uuid, x'') AS beacon_uuid, major, minor, hex(beacon_uuid) || '/' || major || '/' || minor AS key, \(aggregates)
            FROM emitter_cell WHERE kind = 'ble' GROUP BY beacon_uuid, major, minor
            """).map { row in
            guard let uuid = row["beacon_uuid"] as UUID?, let major = UInt16(exactly: row["major"] as Int),
                  let minor = UInt16(exactly: row["minor"] as Int) else {
                throw StoreError.corruptRow("a BLE reading holds no readable beacon identity")
            }
            let beacon = BeaconID(uuid: uuid, major: major, minor: minor)
            let key: String = row["key"]
            return summary(row, emitter: "beacon:\(beacon)", kind: .ble, strongest: strongest[key]) {
                $0.uuid = uuid
                $0.major = major
                $0.minor = minor
                $0.beaconID = registered[beacon]
            }
        }
    }

    private static func summary(
        _ row: Row, emitter: String, kind: RadioKind, strongest: EmitterPlace?, fill: (inout EmitterSummary) -> Void
    ) -> EmitterSummary {
        let readings: Int = row["readings"]
        let rssiSum: Int64 = row["rssi_sum"]
        var summary = EmitterSummary(
            emitter: emitter, kind: kind, readings: readings, meanRSSI: Double(rssiSum) / Double(readings), maxRSSI: row["max_rssi"],
            firstSeen: Date(milliseconds: row["first_ms"]), lastSeen: Date(milliseconds: row["last_ms"]), locations: row["locations"],
            strongestAt: strongest
        )
        fill(&summary)
        return summary
    }

    /// Per emitter (keyed by the SQL expression `key`): the surveyed location that heard it
    /// loudest on average; of equals, the first by key and location ID.
    private static func strongestPlaces(_ db: Database, kind: RadioKind, key: String) throws -> [String: EmitterPlace] {
        var best: [String: EmitterPlace] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT CAST(\(key) AS TEXT) AS key, emitter_cell.location_id AS location_id, location.room_id AS room_id,
                room.floor_id AS floor_id, SUM(emitter_cell.rssi_sum) AS rssi_sum, SUM(emitter_cell.readings) AS readings
            FROM emitter_cell JOIN location ON location.id = emitter_cell.location_id JOIN room ON room.id = location.room_id
            WHERE emitter_cell.kind = ? GROUP BY 1, emitter_cell.location_id
            """, arguments: [kind.rawValue]) {
            let readings: Int = row["readings"]
            let rssiSum: Int64 = row["rssi_sum"]
            let place = EmitterPlace(
                locationID: row["location_id"], roomID: row["room_id"], floorID: row["floor_id"],
                meanRSSI: Double(rssiSum) / Double(readings), readings: readings
            )
            let key: String = row["key"]
            if let current = best[key], current.meanRSSI >= place.meanRSSI { continue }
            best[key] = place
        }
        return best
    }
}
