import Foundation
import GRDB
import Harness
import ScanContract
import Testing
@testable import SwitchdStore

/// Ingest adds a batch's readings to the emitter summary once, per cell: many readings of one
/// emitter in one batch, several batches in one commit, readings already stored (skipped), and a
/// batch refused inside a group leave every cell as the readings stored say, row by row.
@Suite("Emitter summary by batch")
struct EmitterSummaryBatchTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func batchesOfManyReadingsAddUpToTheReadingsStored() async throws {
        let folder = try TemporaryFolder("emitters-batches")
        defer { folder.remove() }
        let database = try AppDatabase.open(stateDirectory: folder.url.path)
        let places = try await database.writer.write { db in try EmitterReadings.places(db) }
        try await database.writer.write { db in
            try EmitterReadings.insertSummarized(db, batch: 1, receivedMs: 0, readings: 0..<1_000, places: places)
        }
        let revision = try await Self.survey(database, at: places.locations[1].id)

        let first = Self.readings(count: 200, from: 0)
        let second = Array(first.suffix(50)) + Self.readings(count: 150, from: 200)
        let batches = [
            MeasurementBatch(batchID: UUID(), scannerID: .default, switchRevision: revision, measurements: first),
            MeasurementBatch(batchID: UUID(), scannerID: .default, switchRevision: revision + 7, measurements: Self.readings(count: 30, from: 900)),
            MeasurementBatch(batchID: UUID(), scannerID: .default, switchRevision: revision, measurements: second),
        ]
        let results = try await database.ingest(batches.map { ($0, Self.now, nil) })
        #expect(results.count == 3)
        #expect(try results[0].get().receipt.stored == 200)
        #expect(throws: StoreError.self, "a batch of a revision that does not exist") { try results[1].get() }
        #expect(try results[2].get().receipt.stored == 150, "the 50 readings stored by the first batch are skipped")

        try await EmitterSummaryTests.expectSameAnswers(database, "three batches in one commit")
        try await Self.expectCellsAddUpTheReadings(database)
    }

    /// Of an emitter's readings at its latest time, the first stored names the cell's SSID, as
    /// when the readings were added one by one.
    @Test func ofReadingsAtTheSameLatestTimeTheFirstNamesTheCell() async throws {
        let folder = try TemporaryFolder("emitters-tie")
        defer { folder.remove() }
        let database = try AppDatabase.open(stateDirectory: folder.url.path)
        let places = try await database.writer.write { db in try EmitterReadings.places(db) }
        let revision = try await Self.survey(database, at: places.locations[0].id)
        let bssid = BSSID(rawValue: 0x02_00_00_00_99_01)
        let readings = ["early", "first", "second"].enumerated().map { index, ssid in
            ScanContract.Measurement(
                time: Self.now.addingTimeInterval(index == 0 ? 0 : 1), rssi: -50, scan: 0,
                observation: .wifi(WiFiObservation(bssid: bssid, ssid: ssid, frequencyMHz: 2412))
            )
        }
        let batch = MeasurementBatch(batchID: UUID(), scannerID: .default, switchRevision: revision, measurements: readings)
        #expect(try await database.ingest(batch, at: Self.now).receipt.stored == 3)
        let later = MeasurementBatch(batchID: UUID(), scannerID: .default, switchRevision: revision, measurements: [
            ScanContract.Measurement(time: Self.now.addingTimeInterval(1), rssi: -40, scan: 1, observation: .wifi(WiFiObservation(
                bssid: bssid, ssid: "third", frequencyMHz: 2412
            ))),
        ])
        #expect(try await database.ingest(later, at: Self.now).receipt.stored == 1)
        let cell = try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT readings, rssi_sum, max_rssi, last_ssid FROM emitter_cell WHERE address = ?", arguments: [Int64(bssid.rawValue)])
                .map { "\($0)" }
        }
        #expect(cell == "\(["readings": 4, "rssi_sum": -190, "max_rssi": -40, "last_ssid": "first"] as Row)")
    }

    /// Every cell's count, RSSI sum and maximum and time span are those of its stored readings.
    static func expectCellsAddUpTheReadings(_ database: AppDatabase, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (cells, readings) = try await database.read { db in
            let cells = try Row.fetchAll(db, sql: """
                SELECT kind, address, beacon_uuid, major, minor, mode, room_id, location_id, readings, rssi_sum, max_rssi, first_ms, last_ms
                FROM emitter_cell ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
                """)
            let readings = try Row.fetchAll(db, sql: """
                SELECT kind,
                    CASE kind WHEN 'wifi' THEN address ELSE 0 END AS address,
                    CASE kind WHEN 'ble' THEN IFNULL(beacon_uuid, x'') ELSE x'' END AS beacon_uuid,
                    CASE kind WHEN 'ble' THEN IFNULL(major, 0) ELSE 0 END AS major,
                    CASE kind WHEN 'ble' THEN IFNULL(minor, 0) ELSE 0 END AS minor,
                    mode, IFNULL(room_id, 0) AS room_id, IFNULL(location_id, 0) AS location_id,
                    COUNT(*) AS readings, SUM(rssi) AS rssi_sum, MAX(rssi) AS max_rssi, MIN(time_ms) AS first_ms, MAX(time_ms) AS last_ms
                FROM measurement GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
                """)
            return (cells.map { "\($0)" }, readings.map { "\($0)" })
        }
        #expect(cells.count == readings.count, sourceLocation: sourceLocation)
        for (cell, truth) in zip(cells, readings) where cell != truth {
            Issue.record("\(cell) is not \(truth)", sourceLocation: sourceLocation)
        }
    }

    static func survey(_ database: AppDatabase, at locationID: Int64) async throws -> Int {
        try await database.updateSwitch(
            of: ScannerID.default, with: SwitchPatch(scanning: true, mode: .survey, locationID: .set(locationID)), at: now
        ).scanSwitch.revision
    }

    /// `count` readings numbered from `from`: twelve access points (one of them among the raw
    /// readings' too) and three beacons, many readings of each, times out of order.
    static func readings(count: Int, from: Int) -> [ScanContract.Measurement] {
        (from..<(from + count)).map { index in
            let time = now.addingTimeInterval(Double((index * 37) % 101))
            let rssi = -40 - (index * 11) % 50
            if index % 5 == 0 {
                return ScanContract.Measurement(time: time, rssi: rssi, scan: index / 20, observation: .ble(BLEObservation(
                    address: BLEAddress(rawValue: 0xC0_FF_EE_00_00_00 + UInt64(index % 2)),
                    beacon: BeaconID(uuid: UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!, major: 1, minor: UInt16(index % 3)),
                    txPower: -59
                )))
            }
            return ScanContract.Measurement(time: time, rssi: rssi, scan: index / 20, observation: .wifi(WiFiObservation(
                bssid: BSSID(rawValue: EmitterReadings.firstAccessPoint + UInt64(index % 12)), ssid: "lab-\(index / 60)", frequencyMHz: 2412
            )))
        }
    }
}
