import Foundation
import Positioning
import ScanContract
import Testing
@testable import SwitchdStore

/// How far a tag's (or the registered beacons') strongest reading sits above the median, read
/// with the same answers on SQLite and on a real PostgreSQL server (docs/scale-out.md): windows
/// heard once are left out, a tag's are read up to a sighting ID, and the median itself has no
/// gap. The sightings are written as rows here: storing them is the tags' area.
@Suite("Reading gaps on both databases", postgresInstalled, .postgresServer)
struct PostgresReadingGapStoreTests {
    @Test(arguments: StoreBackend.allCases)
    func theGapAboveTheMedianIsAveragedOverWindowsHeardTwice(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let floor = try await database.createFloor(NewFloor(name: "Ground"))
            let beacon = try await database.createBeacon(Beacons.new(floorID: floor.id))
            let (tagID, firstSighting) = try await database.writeStatements { sql -> (Int64, Int64) in
                let tag = try #require(try sql.row("""
                    INSERT INTO tag (name, identity, tx_power, missing, height, metadata) VALUES (?, ?, ?, ?, ?, ?) RETURNING id
                    """, [.text("Keys"), .text("keys"), .integer(-59), .boolean(false), .real(1), .text("{}")])).int64("id")
                var first: Int64 = 0
                // (tag or beacon, end, count, median, strongest): gaps 10 and 4 for the tag, 6 for the beacon.
                for (tagged, end, count, median, strongest) in [
                    (true, 1_000, 3, -70.0, -60), (true, 2_000, 1, -70.0, -50), (true, 3_000, 2, -80.0, -76), (false, 4_000, 2, -60.0, -54),
                ] {
                    let id = try #require(try sql.row("""
                        INSERT INTO sighting (scanner_id, tag_id, beacon_id, window_start_ms, window_end_ms, count, median_rssi, max_rssi)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                        """, [
                            .text(ScannerID.default.rawValue), tagged ? .integer(tag) : .null, tagged ? .null : .integer(beacon.id),
                            .integer(Int64(end - 500)), .integer(Int64(end)), StoreValue(count), .real(median), StoreValue(strongest),
                        ])).int64("id")
                    if first == 0 { first = id }
                }
                return (tag, first)
            }
            #expect(try await database.readingAboveMedian(.strongest, of: .tag(tagID, storedUpTo: nil)) == 7)
            #expect(try await database.readingAboveMedian(.midpoint, of: .tag(tagID, storedUpTo: nil)) == 3.5)
            #expect(try await database.readingAboveMedian(.strongest, of: .tag(tagID, storedUpTo: firstSighting)) == 10)
            #expect(try await database.readingAboveMedian(.median, of: .tag(tagID, storedUpTo: nil)) == 0)
            #expect(try await database.readingAboveMedian(.strongest, of: .beacons) == 6)
            #expect(try await database.readingAboveMedian(.strongest, of: .tag(tagID + 1, storedUpTo: nil)) == 0)
        }
    }
}
