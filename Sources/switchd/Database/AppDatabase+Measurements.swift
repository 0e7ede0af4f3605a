import Foundation
import GRDB
import Scan

/// Stored readings after a sequence number, and how far the feed had got when they were read.
struct MeasurementSlice: Sendable {
    /// Ascending by sequence.
    var items: [StoredMeasurement]
    /// The highest sequence given out when the slice was read (matching the filter or not).
    /// Every reading up to it that matches the filter and is not in `items` came before
    /// `items.first`, or — when `items.count` hit the limit — may come after `items.last`.
    var endOfFeed: Int64
}

extension AppDatabase {
    /// Up to `limit` stored readings matching `filter` with a sequence above `sequence`,
    /// ascending, read in one snapshot together with the end of the feed.
    func measurements(matching filter: MeasurementFilter, after sequence: Int64, limit: Int) async throws -> MeasurementSlice {
        try await writer.read { db in
            let query = MeasurementQuery(filter: filter, after: sequence, limit: limit)
            let items = try Row.fetchAll(db.cachedStatement(sql: query.sql), arguments: query.arguments).map(Self.storedMeasurement(from:))
            return MeasurementSlice(items: items, endOfFeed: try Self.endOfFeed(in: db))
        }
    }

    /// The highest sequence ever given out (0 before the first reading); deletes do not lower it.
    func endOfMeasurementFeed() async throws -> Int64 {
        try await writer.read { db in try Self.endOfFeed(in: db) }
    }

    private static func endOfFeed(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'measurement'")) ?? 0
    }

    /// Reads a row selected by ``MeasurementQuery``.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when a stored value is not one switchd writes.
    private static func storedMeasurement(from row: Row) throws -> StoredMeasurement {
        let sequence: Int64 = row[0]
        let modeText: String = row[5]
        let kindText: String = row[8]
        guard let mode = ScanMode(rawValue: modeText), let kind = RadioKind(rawValue: kindText) else {
            throw StoreError.corruptRow("measurement \(sequence) holds mode \"\(modeText)\" kind \"\(kindText)\"")
        }
        let addressBits: Int64 = row[12]
        let address = MACAddress(rawValue: UInt64(bitPattern: addressBits))
        let observation: Observation
        switch kind {
        case .wifi:
            guard let ssid: String = row[13], let frequencyMHz: Int = row[14] else {
                throw StoreError.corruptRow("measurement \(sequence) is a Wi-Fi reading without SSID or frequency")
            }
            observation = .wifi(WiFiObservation(bssid: address, ssid: ssid, frequencyMHz: frequencyMHz))
        case .ble:
            guard let beaconUUID: UUID = row[15], let major: Int = row[16], let minor: Int = row[17], let txPower: Int = row[18],
                  let major16 = UInt16(exactly: major), let minor16 = UInt16(exactly: minor) else {
                throw StoreError.corruptRow("measurement \(sequence) is a BLE reading without a complete beacon identity")
            }
            observation = .ble(BLEObservation(address: address, beacon: BeaconID(uuid: beaconUUID, major: major16, minor: minor16), txPower: txPower))
        }
        let measurement = Scan.Measurement(id: row[1], time: Date(milliseconds: row[9]), rssi: row[10], scan: row[11], observation: observation)
        return StoredMeasurement(
            sequence: sequence, scannerID: try storedScannerID(row[3]), batchID: row[2], switchRevision: row[4], mode: mode,
            roomID: row[6], locationID: row[7], measurement: measurement
        )
    }
}

/// The SELECT behind paging and the live stream: filters as conditions, ascending by sequence.
struct MeasurementQuery {
    var sql: String
    var arguments: StatementArguments

    init(filter: MeasurementFilter, after sequence: Int64, limit: Int) {
        var conditions = ["m.sequence > ?"]
        var arguments: StatementArguments = [sequence]
        if let scannerID = filter.scannerID {
            conditions.append("m.scanner_id = ?")
            arguments += [scannerID.rawValue]
        }
        if let locationID = filter.locationID {
            conditions.append("m.location_id = ?")
            arguments += [locationID]
        }
        if let roomID = filter.roomID {
            conditions.append("m.room_id = ?")
            arguments += [roomID]
        }
        if let kind = filter.kind {
            conditions.append("m.kind = ?")
            arguments += [kind.rawValue]
        }
        if let since = filter.since {
            conditions.append("m.time_ms >= ?")
            arguments += [since.milliseconds]
        }
        if let until = filter.until {
            conditions.append("m.time_ms < ?")
            arguments += [until.milliseconds]
        }
        arguments += [limit]
        sql = """
            SELECT m.sequence, m.uuid, b.uuid, m.scanner_id, m.revision, m.mode, m.room_id, m.location_id,
                   m.kind, m.time_ms, m.rssi, m.scan, m.address, m.ssid, m.frequency_mhz,
                   m.beacon_uuid, m.major, m.minor, m.tx_power
            FROM measurement AS m JOIN batch AS b ON b.id = m.batch_id
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY m.sequence
            LIMIT ?
            """
        self.arguments = arguments
    }
}
