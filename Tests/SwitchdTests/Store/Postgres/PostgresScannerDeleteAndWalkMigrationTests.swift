import Foundation
import GRDB
import Harness
import Testing
@testable import SwitchdStore

/// Main's four migrations after `v4-tag-events-in-presence` (`v4-scanner-delete`,
/// `v4-history-indexes`, `v4-walk-survey`, `v4-emitter-summary-by-batch`), applied to a
/// database that already holds a scanner with a batch and a reading, behave alike on SQLite
/// and PostgreSQL: the scanner can then be deleted with its batch kept, `deleted_scanner` and
/// `walk` refuse the same rows, a walk's points go with it, and new readings no longer reach
/// the emitter cells while deleted ones still leave them. (The tables, columns, indexes and
/// triggers themselves are compared by ``PostgresMigrationTests``.)
@Suite("PostgreSQL twins of the scanner delete, walk and emitter-by-batch migrations", postgresInstalled, .postgresServer)
struct PostgresScannerDeleteAndWalkMigrationTests {
    typealias Statement = (sqlite: String, postgres: String)

    let server: PostgresServer
    let database: String
    let sqlite: DatabaseQueue

    /// Both databases migrated up to `v4-tag-events-in-presence`.
    init() async throws {
        (server, database) = try await freshPostgresDatabase()
        sqlite = try DatabaseQueue(configuration: AppDatabase.configuration())
        for (identifier, sql) in PostgresMigrations.history {
            _ = try await server.psql(sql, database: database)
            if identifier == Self.lastBefore { break }
        }
        try AppDatabase.migrator.migrate(sqlite, upTo: Self.lastBefore)
    }

    static let lastBefore = "v4-tag-events-in-presence"

    @Test func theMigratedDatabasesBehaveAlike() async throws {
        try await run(PostgresMigrationTests.commonDialect([
            "INSERT INTO floor (building, name, level) VALUES ('Main', 'Ground', 0)",
            "INSERT INTO room (floor_id, name) VALUES (1, 'Lab')",
            "INSERT INTO location (room_id, name, x, y) VALUES (1, 'Desk', 1, 2)",
            "INSERT INTO scanner (id, name) VALUES ('gone', 'Gone')",
        ]) + [PostgresMigrationTests.batch, Self.batchOfGone] + PostgresMigrationTests.readings(first: 1, [
            ("wifi", 1, "NULL", "survey", "1", "1", 1_000, -60, "'lab'"),
        ]))
        try await expectRefused("DELETE FROM scanner WHERE id = 'gone'")

        for (identifier, sql) in PostgresMigrations.history.drop(while: { $0.identifier != Self.lastBefore }).dropFirst() {
            _ = try await server.psql(sql, database: database)
            try AppDatabase.migrator.migrate(sqlite, upTo: identifier)
        }

        // v4-scanner-delete: the scanner goes, its batch stays under its ID.
        try await run(PostgresMigrationTests.commonDialect([
            "DELETE FROM scanner WHERE id = 'gone'",
            "INSERT INTO deleted_scanner (scanner_id, last_revision, deleted_ms) VALUES ('gone', 3, 5000)",
        ]))
        try await expectSame("SELECT id || '|' || scanner_id FROM batch ORDER BY id", ["1|default", "2|gone"])
        try await expectRefused("INSERT INTO deleted_scanner (scanner_id, last_revision, deleted_ms) VALUES ('other', 0, 5000)")
        try await expectRefused("INSERT INTO deleted_scanner (scanner_id, last_revision, deleted_ms) VALUES ('gone', 4, 6000)")

        // v4-walk-survey: one walk under way per scanner, a finished walk has arrived, and a
        // walk's points go with it.
        try await run(PostgresMigrationTests.commonDialect([
            Self.walk(revision: 1, state: "'walking'", arrived: "NULL"),
            "INSERT INTO location (room_id, name, x, y, walk_id, walk_scan) VALUES (1, 'Point', 1.5, 2, 1, 1)",
        ]))
        try await expectRefused(Self.walk(revision: 2, state: "'walking'", arrived: "NULL"))
        try await expectRefused(Self.walk(revision: 2, state: "'done'", arrived: "NULL"))
        try await expectRefused(Self.walk(revision: 2, state: "'done'", arrived: "10"))
        try await expectSame("SELECT name FROM location ORDER BY id", ["Desk", "Point"])
        try await run(PostgresMigrationTests.commonDialect(["DELETE FROM walk"]))
        try await expectSame("SELECT name FROM location ORDER BY id", ["Desk"])

        // v4-emitter-summary-by-batch: a new reading leaves its cell alone (ingest adds it),
        // deleting the one the cell counts still takes the cell away.
        try await expectSameCells(["wifi|1||0|0|survey|1|1|1|-60|-60|1000|1000|lab"])
        try await run(PostgresMigrationTests.readings(first: 2, [
            ("wifi", 1, "NULL", "survey", "1", "1", 2_000, -50, "'lab'"),
        ]))
        try await expectSameCells(["wifi|1||0|0|survey|1|1|1|-60|-60|1000|1000|lab"])
        try await run(PostgresMigrationTests.commonDialect(["DELETE FROM measurement WHERE time_ms = 1000"]))
        try await expectSameCells([])
    }

    // MARK: - Helpers

    /// Batch 2, of scanner `gone`.
    static let batchOfGone = (
        sqlite: "INSERT INTO batch (uuid, scanner_id, revision, received_ms, stored, discarded) VALUES (\(PostgresMigrationTests.uuid(1_001).sqlite), 'gone', 1, 0, 0, FALSE)",
        postgres: "INSERT INTO batch (uuid, scanner_id, revision, received_ms, stored, discarded) VALUES (\(PostgresMigrationTests.uuid(1_001).postgres), 'gone', 1, 0, 0, FALSE)"
    )

    /// A walk of scanner `default` in room 1, started at 10.
    static func walk(revision: Int, state: String, arrived: String) -> String {
        """
        INSERT INTO walk (scanner_id, revision, room_id, start_x, start_y, end_x, end_y, started_ms, arrived_ms, state)
        VALUES ('default', \(revision), 1, 0, 0, 1, 1, 10, \(arrived), \(state))
        """
    }

    func run(_ statements: [Statement]) async throws {
        for statement in statements {
            _ = try await server.psql(statement.postgres, database: database)
            try await sqlite.write { db in try db.execute(sql: statement.sqlite) }
        }
    }

    func expectRefused(_ statement: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        await #expect(throws: HarnessError.self, "PostgreSQL: \(statement)", sourceLocation: sourceLocation) {
            _ = try await server.psql(statement, database: database)
        }
        await #expect(throws: DatabaseError.self, "SQLite: \(statement)", sourceLocation: sourceLocation) {
            try await sqlite.write { db in try db.execute(sql: statement) }
        }
    }

    func expectSame(_ query: String, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let postgres = try await server.psql(query, database: database)
        #expect(PostgresMigrationTests.lines(postgres) == expected, "PostgreSQL", sourceLocation: sourceLocation)
        #expect(try await sqlite.read { db in try String.fetchAll(db, sql: query) } == expected, "SQLite", sourceLocation: sourceLocation)
    }

    func expectSameCells(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let postgres = try await server.psql(PostgresMigrationTests.cellLines(hex: "encode(beacon_uuid, 'hex')"), database: database)
        #expect(PostgresMigrationTests.lines(postgres) == expected, "PostgreSQL", sourceLocation: sourceLocation)
        let cells = try await sqlite.read { db in try String.fetchAll(db, sql: PostgresMigrationTests.cellLines(hex: "lower(hex(beacon_uuid))")) }
        #expect(cells == expected, "SQLite", sourceLocation: sourceLocation)
    }
}
