import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// A full disk is a 507 that says so, and loses nothing already stored. SQLite is made to find
/// the disk full for real: the database is capped (`PRAGMA max_page_count`) at the pages it has.
@Suite("Full disk")
struct DiskFullTests {
    @Test func anUploadToAFullDiskIs507AndStoredReadingsStay() async throws {
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database).test(.router) { client in
                let spot = try await SurveySpot.make(client)
                let revision = try await client.startSurvey(at: spot.location.id).revision
                _ = try await client.uploadNew(Readings.batch([Readings.wifi(), Readings.ble()], revision: revision))
                let storedBefore = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self).items
                let countsBefore = try await StoredCounts(database)

                try await Self.capAtCurrentSize(database)
                let big = Readings.batch((0..<2000).map { Readings.wifi(scan: $0 / 10, rssi: -40 - $0 % 50) }, revision: revision)
                let full = try await client.upload(big)
                #expect(full.status.code == 507)
                let error = try errorBody(full)
                #expect(error.code == "insufficient_storage")
                #expect(error.message.contains("full"), "\(error.message)")
                #expect(try await StoredCounts(database) == countsBefore)
                #expect(try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self).items == storedBefore)

                try await Self.lift(database)
                let receipt = try await client.uploadNew(big)
                #expect(receipt.stored == 2000)
            }
        }
    }

    /// The writer may not grow the file past the pages it has now.
    static func capAtCurrentSize(_ database: AppDatabase) async throws {
        try await database.writer.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
    }

    static func lift(_ database: AppDatabase) async throws {
        try await database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1073741823") }
    }
}
