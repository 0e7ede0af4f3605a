import Foundation
import Harness
import Testing
@testable import SwitchdStore

/// The two databases the store runs on, for suites that make the same assertions on both
/// (docs/scale-out.md): an empty SQLite database in memory, or a fresh database in the suite's
/// PostgreSQL server (``PostgresSuite``), migrated by the store itself.
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// Runs `body` with an empty store on this backend, and closes it afterwards.
    func withDatabase(_ body: (AppDatabase) async throws -> Void) async throws {
        let database: AppDatabase
        switch self {
        case .sqlite:
            database = try AppDatabase.inMemory()
        case .postgres:
            let (server, name) = try await freshPostgresDatabase()
            database = try await AppDatabase.open(postgres: try PostgresAddress(url: server.url(database: name)), maxConnections: 2)
        }
        do {
            try await body(database)
        } catch {
            try await database.close()
            throw error
        }
        try await database.close()
    }
}
