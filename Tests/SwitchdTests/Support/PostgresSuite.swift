import Harness
import Testing
@testable import SwitchdStore

/// One throwaway PostgreSQL server (``PostgresServer``) for a whole suite: started before its
/// first test, removed after its last, whatever they did. A suite with this trait is skipped,
/// saying why, where Debian's PostgreSQL is not installed. Tests reach the server through
/// ``PostgresSuite/server`` and make their own database in it, so they share no rows.
///
/// A suite with this trait is named `Postgres…Tests`: `scripts/test` runs those in a `swift test`
/// of their own (`--filter 'SwitchdTests\.Postgres'`), after the others, so that their servers
/// and any failure of theirs stay out of the main run.
struct PostgresSuite: SuiteTrait, TestScoping {
    @TaskLocal static var current: PostgresServer?

    /// The suite's server.
    ///
    /// - Throws: when called outside a suite with this trait.
    static func server() throws -> PostgresServer {
        guard let current else { throw HarnessError("no PostgreSQL server: the suite needs the .postgresServer trait") }
        return current
    }

    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let server = try await PostgresServer()
        do {
            try await Self.$current.withValue(server) { try await function() }
        } catch {
            await server.remove()
            throw error
        }
        await server.remove()
    }
}

extension Trait where Self == PostgresSuite {
    /// A PostgreSQL server for the suite (``PostgresSuite``).
    static var postgresServer: Self { PostgresSuite() }
}

/// Whether a suite that needs PostgreSQL can run here, with the reason when it cannot.
let postgresInstalled = ConditionTrait.enabled(if: PostgresServer.isInstalled, Comment(rawValue: PostgresServer.missing ?? ""))

/// A fresh database in the suite's server, named for nothing else in it.
func freshPostgresDatabase() async throws -> (server: PostgresServer, name: String) {
    let server = try PostgresSuite.server()
    let name = "test_\(UInt64.random(in: 0 ... UInt64.max))"
    try await server.createDatabase(name)
    return (server, name)
}

/// Two stores on one fresh database of the suite's server, as two switchd instances would open
/// it (each its own pool of `maxConnections`); the caller closes both.
func twoPostgresInstances(maxConnections: Int = 1) async throws -> (AppDatabase, AppDatabase) {
    let (server, name) = try await freshPostgresDatabase()
    let address = try PostgresAddress(url: server.url(database: name))
    let first = try await AppDatabase.open(postgres: address, maxConnections: maxConnections)
    let second = try await AppDatabase.open(postgres: address, maxConnections: maxConnections)
    return (first, second)
}
