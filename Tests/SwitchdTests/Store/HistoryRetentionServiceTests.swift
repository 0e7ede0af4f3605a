import Foundation
import GRDB
import Harness
import Logging
import ScanContract
import ServiceLifecycle
import Testing
@testable import switchd
@testable import SwitchdStore

/// The service behind `--keep-days` prunes at start and then every hour of its clock.
@Suite("History retention service", .timeLimit(.minutes(1)))
struct HistoryRetentionServiceTests {
    @Test func readingsGoOnceTheyAreOlderThanTheKeptDays() async throws {
        let folder = try TemporaryFolder("retention-service")
        defer { folder.remove() }
        let database = try AppDatabase.open(stateDirectory: folder.url.path)
        let clock = WatchedClock()
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let locate = try await database.updateSwitch(
            of: ScannerID.default, with: SwitchPatch(scanning: true, mode: .locate, storeData: true), at: start
        ).scanSwitch.revision
        _ = try await database.ingest(HistoryRetentionTests.batch(3, revision: locate), at: start)
        let service = HistoryRetentionService(
            database: database, keep: .seconds(600), logger: Logger(label: "test"), clock: clock, now: clock.wallClock(from: start)
        )
        let running = Task { try await service.run() }
        defer { running.cancel() }

        // The pass at start finds the readings too young (kept 10 minutes); the service then sleeps.
        await clock.sleepers(1)
        #expect(try await Self.readings(in: database) == 3)
        // The pass an hour later deletes them.
        await clock.advance(by: .seconds(3601))
        while try await Self.readings(in: database) > 0 {
            await Task.yield()
        }
        running.cancel()
        try await running.value
    }

    static func readings(in database: AppDatabase) async throws -> Int {
        try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM measurement") ?? 0 }
    }
}
