import Foundation
import GRDB

/// switchd's storage: one SQLite database, reached through named read and write methods.
///
/// The schema enforces the rules (not null, foreign keys with cascades, unique batch and
/// measurement IDs); the methods add what SQL cannot say. Every write method is one transaction:
/// when it throws, nothing it did is kept.
struct AppDatabase: Sendable {
    let writer: any DatabaseWriter

    /// Opens `writer` and brings its schema up to date.
    ///
    /// - Throws: when a migration fails; the database is then left as it was before that migration.
    init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// The file a production switchd keeps its state in, below its state directory.
    static let fileName = "switchd.sqlite"

    /// Opens (creating when needed) `<stateDirectory>/switchd.sqlite` as a WAL database pool.
    ///
    /// - Throws: when the directory cannot be created or the file is not a usable SQLite database.
    static func open(stateDirectory: String) throws -> AppDatabase {
        let directory = URL(fileURLWithPath: stateDirectory, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(fileName).path
        return try AppDatabase(DatabasePool(path: path, configuration: configuration()))
    }

    /// An empty database in memory, for tests.
    static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: configuration()))
    }

    /// Foreign keys on (GRDB's default, stated here because the cascades depend on it) and
    /// `synchronous = FULL`, so an acknowledged batch survives a power cut: scanners delete their
    /// spooled copy once they have the receipt. A write waits up to 5 s for another process's
    /// (`switchd token` while switchd runs) instead of failing at once.
    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return configuration
    }

    /// Whether the database answers a query.
    func ping() async throws {
        _ = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }
}
