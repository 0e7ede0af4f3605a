import Foundation
import GRDB
import Harness
import Testing
@testable import SwitchdStore

/// With background checkpoints, a commit that grows the WAL past the threshold leaves its pages
/// in the WAL, and the checkpointer, on its own connection, copies them into the database file:
/// on a real SQLite file, its size showing where the pages are.
@Suite("WAL checkpointer")
struct WALCheckpointerTests {
    @Test func commitsLeaveTheWALToTheCheckpointer() async throws {
        let folder = try TemporaryFolder("wal-checkpointer")
        defer { folder.remove() }
        let database = try AppDatabase.open(stateDirectory: folder.url.path, checkpointsInBackground: true)
        let checkpointer = try #require(database.checkpointer)
        let file = folder.url.appendingPathComponent(AppDatabase.fileName).path
        let before = try Self.size(of: file)
        let rows = 2 * WALCheckpointer.defaultThreshold
        try await database.writer.write { db in
            try db.execute(sql: """
                CREATE TABLE filler (bytes BLOB);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO filler SELECT randomblob(4000) FROM n;
                """, arguments: [rows])
        }
        #expect(try Self.size(of: file) == before, "the commit left its pages in the WAL")

        let (outcomes, report) = AsyncStream.makeStream(of: Result<(walFrames: Int, checkpointed: Int), any Error>.self)
        let running = Task { try await checkpointer.run { report.yield($0) } }
        defer { running.cancel() }
        var iterator = outcomes.makeAsyncIterator()
        let checkpoint = try #require(await iterator.next()).get()
        #expect(checkpoint.walFrames > WALCheckpointer.defaultThreshold)
        #expect(checkpoint.checkpointed == checkpoint.walFrames, "no reader held an older snapshot: every frame copied")
        #expect(try Self.size(of: file) > before + rows * 4000)
        let count = try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM filler") }
        #expect(count == rows)
    }

    /// A burst grows the WAL past ``AppDatabase/walSizeLimit``; once the checkpointer has copied
    /// it, the next commit starts the WAL over and SQLite cuts the file back to the limit.
    @Test func aWALGrownByABurstIsCutBackWhenItStartsOver() async throws {
        let folder = try TemporaryFolder("wal-size-limit")
        defer { folder.remove() }
        let database = try AppDatabase.open(stateDirectory: folder.url.path, checkpointsInBackground: true)
        let checkpointer = try #require(database.checkpointer)
        let wal = folder.url.appendingPathComponent(AppDatabase.fileName).path + "-wal"
        let rows = AppDatabase.walSizeLimit / 4000 + 1_000
        try await database.writer.write { db in
            try db.execute(sql: """
                CREATE TABLE filler (bytes BLOB);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO filler SELECT randomblob(4000) FROM n;
                """, arguments: [rows])
        }
        #expect(try Self.size(of: wal) > AppDatabase.walSizeLimit)

        let (outcomes, report) = AsyncStream.makeStream(of: Result<(walFrames: Int, checkpointed: Int), any Error>.self)
        let running = Task { try await checkpointer.run { report.yield($0) } }
        defer { running.cancel() }
        var iterator = outcomes.makeAsyncIterator()
        let checkpoint = try #require(await iterator.next()).get()
        #expect(checkpoint.checkpointed == checkpoint.walFrames)

        try await database.writer.write { db in try db.execute(sql: "INSERT INTO filler VALUES (x'00')") }
        #expect(try Self.size(of: wal) <= AppDatabase.walSizeLimit)
        let count = try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM filler") }
        #expect(count == rows + 1)
    }

    static func size(of path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
    }
}
