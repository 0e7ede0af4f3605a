import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// Up to `limit` stored readings matching `filter` with a sequence above `sequence`,
    /// ascending, read in one snapshot together with the end of the feed.
    func measurements(matching filter: MeasurementFilter, after sequence: Int64, limit: Int) async throws -> FeedSlice<StoredMeasurement> {
        try await writer.read { db in
            let query = MeasurementQuery(filter: filter, after: sequence, limit: limit)
            let items = try Row.fetchAll(db.cachedStatement(sql: query.sql), arguments: query.arguments).map(Self.storedMeasurement(from:))
            return FeedSlice(items: items, endOfFeed: try Self.endOfFeed(in: db))
        }
    }

    /// The stored readings matching `filter`, as a feed for paging and streaming.
    func measurementSource(matching filter: MeasurementFilter, feed: SequenceFeed) -> FeedSource<StoredMeasurement> {
        FeedSource(
            event: "measurement", sequence: { $0.sequence },
            read: { after, limit in try await measurements(matching: filter, after: after, limit: limit) },
            end: { try await endOfMeasurementFeed() }, feed: feed
        )
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
        let measurement = ScanContract.Measurement(id: row[1], time: Date(milliseconds: row[9]), rssi: row[10], scan: row[11], observation: observation)
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
        var conditions = SQLConditions()
        conditions.add("m.sequence > ?", sequence)
        conditions.add("m.scanner_id = ?", filter.scannerID?.rawValue)
        conditions.add("m.location_id = ?", filter.locationID)
        conditions.add("m.room_id = ?", filter.roomID)
        conditions.add("m.kind = ?", filter.kind?.rawValue)
        conditions.add("m.time_ms >= ?", filter.since?.milliseconds)
        conditions.add("m.time_ms < ?", filter.until?.milliseconds)
        sql = """
            SELECT m.sequence, m.uuid, b.uuid, m.scanner_id, m.revision, m.mode, m.room_id, m.location_id,
                   m.kind, m.time_ms, m.rssi, m.scan, m.address, m.ssid, m.frequency_mhz,
                   m.beacon_uuid, m.major, m.minor, m.tx_power
            FROM measurement AS m JOIN batch AS b ON b.id = m.batch_id
            WHERE \(conditions.sql)
            ORDER BY m.sequence
            LIMIT ?
            """
        arguments = conditions.arguments + [limit]
    }
}
