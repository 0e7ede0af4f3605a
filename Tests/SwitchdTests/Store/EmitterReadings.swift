import Foundation
import GRDB
import ScanContract
@testable import SwitchdStore

/// Varied readings written straight into `measurement` by one SQL statement, fast enough for a
/// million: Wi-Fi from 40 access points (some changing SSID over time, some without one) and BLE
/// from two beacon UUIDs and nine minors sent by five device addresses; survey readings at four
/// locations in three rooms, locate readings with and without a room; times out of order.
enum EmitterReadings {
    static let firstAccessPoint: UInt64 = 0x02_00_00_00_01_00

    struct Places {
        var rooms: [Int64]
        var locations: [(id: Int64, roomID: Int64)]
    }

    /// A floor, three rooms and four locations (two in the first room).
    static func places(_ db: Database) throws -> Places {
        try db.execute(sql: "INSERT INTO floor (building, name, level) VALUES ('Main', 'Ground', 0)")
        let floor = db.lastInsertedRowID
        var rooms: [Int64] = []
        for name in ["Hall", "Café", "Store"] {
            try db.execute(sql: "INSERT INTO room (floor_id, name) VALUES (?, ?)", arguments: [floor, name])
            rooms.append(db.lastInsertedRowID)
        }
        var locations: [(id: Int64, roomID: Int64)] = []
        for (index, room) in [rooms[0], rooms[0], rooms[1], rooms[2]].enumerated() {
            try db.execute(sql: "INSERT INTO location (room_id, name, x, y) VALUES (?, ?, ?, 1)", arguments: [room, "L\(index)", Double(index)])
            locations.append((db.lastInsertedRowID, room))
        }
        return Places(rooms: rooms, locations: locations)
    }

    /// Readings number `readings` (each number always makes the same reading) in a new batch `batch`.
    static func insert(_ db: Database, batch: Int64, receivedMs: Int64, readings: Range<Int>, places: Places) throws {
        try db.execute(sql: """
            INSERT INTO batch (id, uuid, scanner_id, revision, received_ms, stored, discarded)
            VALUES (?, randomblob(16), 'default', 1, ?, ?, 0)
            """, arguments: [batch, receivedMs, readings.count])
        let spots = places.locations
        try db.execute(sql: """
            WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2 - 1),
            spot(i, survey, place, ble) AS (SELECT i, i % 3 <> 0, (i / 7) % 4, i % 4 = 0 FROM n)
            INSERT INTO measurement (
                uuid, batch_id, scanner_id, revision, mode, room_id, location_id, kind, time_ms, rssi, scan,
                address, ssid, frequency_mhz, beacon_uuid, major, minor, tx_power
            )
            SELECT randomblob(16), ?3, 'default', 1,
                CASE WHEN survey THEN 'survey' ELSE 'locate' END,
                CASE WHEN survey THEN (CASE place WHEN 0 THEN ?4 WHEN 1 THEN ?5 WHEN 2 THEN ?6 ELSE ?7 END)
                    WHEN i % 6 = 1 THEN ?12 ELSE NULL END,
                CASE WHEN survey THEN (CASE place WHEN 0 THEN ?8 WHEN 1 THEN ?9 WHEN 2 THEN ?10 ELSE ?11 END) ELSE NULL END,
                CASE WHEN ble THEN 'ble' ELSE 'wifi' END,
                1700000000000 + ((i * 7919) % 1000003) * 10,
                -30 - (i * 13) % 61 - place * 3,
                i / 10,
                CASE WHEN ble THEN 211375142584320 + i % 5 ELSE ?13 + (i * 7) % 40 END,
                CASE WHEN ble OR i % 11 = 0 THEN NULL WHEN i % 2 = 0 THEN 'lab' ELSE 'lab-' || (i / 500) % 3 END,
                CASE WHEN ble THEN NULL ELSE 2412 END,
                CASE WHEN NOT ble THEN NULL WHEN i % 8 = 0 THEN x'F7826DA64FA24E988024BC5B71E0893E' ELSE x'E2C56DB5DFFB48D2B060D0F5A71096E0' END,
                CASE WHEN ble THEN 1 ELSE NULL END,
                CASE WHEN ble THEN (i * 3) % 9 ELSE NULL END,
                CASE WHEN ble THEN -59 ELSE NULL END
            FROM spot
            """, arguments: [
                readings.lowerBound, readings.upperBound, batch,
                spots[0].roomID, spots[1].roomID, spots[2].roomID, spots[3].roomID,
                spots[0].id, spots[1].id, spots[2].id, spots[3].id,
                places.rooms[1], Int64(firstAccessPoint),
            ])
    }
}

extension EmitterReadings {
    /// ``insert(_:batch:receivedMs:readings:places:)``, then the batch's readings added to the
    /// emitter summary the way ingest adds a batch's (the summary has no insert trigger).
    static func insertSummarized(_ db: Database, batch: Int64, receivedMs: Int64, readings: Range<Int>, places: Places) throws {
        try insert(db, batch: batch, receivedMs: receivedMs, readings: readings, places: places)
        var tally = EmitterCellTally()
        let stored = try MeasurementRecord.fetchAll(db, sql: "SELECT * FROM measurement WHERE batch_id = ? ORDER BY sequence", arguments: [batch])
        for reading in stored { tally.add(reading) }
        try tally.save(db)
    }
}

/// The emitter listing as it was answered before the summary: aggregates over every stored
/// reading. The reference the summary must agree with.
enum EmitterScan {
    static func emitters(_ db: Database) throws -> [EmitterSummary] {
        var summaries = try wifiEmitters(db) + beaconEmitters(db)
        summaries.sort { $0.emitter < $1.emitter }
        return summaries
    }

    private static let aggregates = """
        COUNT(*) AS readings, AVG(rssi) AS mean_rssi, MAX(rssi) AS max_rssi, MIN(time_ms) AS first_ms,
        MAX(time_ms) AS last_ms, COUNT(DISTINCT location_id) AS locations
        """

    private static func wifiEmitters(_ db: Database) throws -> [EmitterSummary] {
        let strongest = try strongestPlaces(db, kind: .wifi, key: "measurement.address")
        let ssids = try Dictionary(Row.fetchAll(db, sql: """
            SELECT address, ssid, MAX(time_ms) FROM measurement WHERE kind = 'wifi' GROUP BY address
            """).map { row -> (Int64, String) in (row["address"], row["ssid"] ?? "") }, uniquingKeysWith: { a, _ in a })
        return try Row.fetchAll(db, sql: "SELECT address, \(aggregates) FROM measurement WHERE kind = 'wifi' GROUP BY address")
            .map { row in
                let address: Int64 = row["address"]
                let bssid = BSSID(rawValue: UInt64(bitPattern: address))
                var summary = summary(row, emitter: "ap:\(bssid)", kind: .wifi, strongest: strongest["\(address)"])
                summary.bssid = bssid.description
                summary.ssid = ssids[address]
                return summary
            }
    }

    private static func beaconEmitters(_ db: Database) throws -> [EmitterSummary] {
        let strongest = try strongestPlaces(db, kind: .ble, key: "hex(measurement.beacon_uuid) || '/' || measurement.major || '/' || measurement.minor")
        let registered = try Dictionary(BeaconRecord.fetchBeacons(SQLiteTransaction(db: db)).map { ($0.beaconID, $0.id) }, uniquingKeysWith: { a, _ in a })
        return try Row.fetchAll(db, sql: """
            SELECT beacon_uuid, major, minor, hex(beacon_uuid) || '/' || major || '/' || minor AS key, \(aggregates)
            FROM measurement WHERE kind = 'ble' GROUP BY beacon_uuid, major, minor
            """).map { row in
            let uuid: UUID = row["beacon_uuid"]
            let beacon = BeaconID(uuid: uuid, major: UInt16(row["major"] as Int), minor: UInt16(row["minor"] as Int))
            var summary = summary(row, emitter: "beacon:\(beacon)", kind: .ble, strongest: strongest[row["key"] as String])
            summary.uuid = uuid
            summary.major = beacon.major
            summary.minor = beacon.minor
            summary.beaconID = registered[beacon]
            return summary
        }
    }

    private static func summary(_ row: Row, emitter: String, kind: RadioKind, strongest: EmitterPlace?) -> EmitterSummary {
        EmitterSummary(
            emitter: emitter, kind: kind, readings: row["readings"], meanRSSI: row["mean_rssi"], maxRSSI: row["max_rssi"],
            firstSeen: Date(milliseconds: row["first_ms"]), lastSeen: Date(milliseconds: row["last_ms"]), locations: row["locations"],
            strongestAt: strongest
        )
    }

    private static func strongestPlaces(_ db: Database, kind: RadioKind, key: String) throws -> [String: EmitterPlace] {
        var best: [String: EmitterPlace] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT CAST(\(key) AS TEXT) AS key, measurement.location_id AS location_id, location.room_id AS room_id,
                room.floor_id AS floor_id, AVG(measurement.rssi) AS mean_rssi, COUNT(*) AS readings
            FROM measurement JOIN location ON location.id = measurement.location_id JOIN room ON room.id = location.room_id
            WHERE measurement.kind = ? GROUP BY 1, measurement.location_id
            """, arguments: [kind.rawValue]) {
            let place = EmitterPlace(
                locationID: row["location_id"], roomID: row["room_id"], floorID: row["floor_id"], meanRSSI: row["mean_rssi"], readings: row["readings"]
            )
            let key: String = row["key"]
            if let current = best[key], current.meanRSSI >= place.meanRSSI { continue }
            best[key] = place
        }
        return best
    }
}
