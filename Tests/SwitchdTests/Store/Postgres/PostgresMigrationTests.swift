import Foundation
import GRDB
import Harness
import Testing
@testable import SwitchdStore

/// The PostgreSQL migrations are the SQLite ones in the other dialect: the same identifiers in
/// the same order, and, applied to a real PostgreSQL server, the same tables with the same
/// columns (each type mapped as docs/scale-out.md says), keys, nullability, indexes and
/// triggers, and triggers and checks that behave alike.
@Suite("PostgreSQL migrations", postgresInstalled, .postgresServer)
struct PostgresMigrationTests {
    /// Columns SQLite keeps as INTEGER 0/1 and PostgreSQL as `boolean` (the records hold a `Bool`).
    static let booleanColumns: Set<String> = [
        "switch_revision.scanning", "switch_revision.store_data", "batch.discarded", "presence_state.settled",
        "presence_state.away", "tag.missing", "tag.missing_heard", "mqtt_outbox.retain",
    ]
    /// Columns GRDB keeps as 16-byte BLOBs and PostgreSQL as `uuid`.
    static let uuidColumns: Set<String> = ["batch.uuid", "measurement.uuid", "measurement.beacon_uuid", "beacon.uuid"]

    /// One column as both databases describe it, SQLite's type mapped to PostgreSQL's.
    struct ColumnShape: Hashable, CustomStringConvertible {
        var table: String
        var name: String
        var type: String
        var nullable: Bool
        var primaryKey: Bool

        var description: String { "\(table).\(name) \(type)\(nullable ? "" : " NOT NULL")\(primaryKey ? " PK" : "")" }
    }

    @Test func theHistoriesHaveTheSameIdentifiersInTheSameOrder() {
        #expect(PostgresMigrations.history.map(\.identifier) == AppDatabase.migrator.migrations)
    }

    @Test func aMigratedDatabaseHasSQLitesTablesColumnsIndexesAndTriggers() async throws {
        let (server, database) = try await Self.migratedDatabase()
        let sqlite = try AppDatabase.inMemory().writer

        let expectedColumns = try await Self.sqliteColumns(sqlite)
        let columns = try await Self.postgresColumns(server, database)
        #expect(Set(columns.map(\.table)) == Set(expectedColumns.map(\.table)))
        for table in Set(expectedColumns.map(\.table)).sorted() {
            #expect(columns.filter { $0.table == table } == expectedColumns.filter { $0.table == table })
        }

        let sqliteNames = try await sqlite.read { db in
            try Row.fetchAll(db, sql: """
                SELECT type, name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY name
                """).map { "\($0["type"] as String) \($0["name"] as String)" }
        }
        let postgresNames = try await server.psql("""
            SELECT 'index ' || indexname FROM pg_indexes
            WHERE schemaname = 'public' AND indexname NOT IN (SELECT conname FROM pg_constraint)
            UNION SELECT DISTINCT 'trigger ' || trigger_name FROM information_schema.triggers WHERE trigger_schema = 'public'
            ORDER BY 1
            """, database: database)
        #expect(Self.lines(postgresNames).sorted() == sqliteNames.sorted())
    }

    /// The store's own migrator (``PostgresStore/migrate()``), run twice as by two instances
    /// started one after the other: the second finds every migration applied.
    @Test func theStoreAppliesEveryMigrationOnceAndRecordsIt() async throws {
        let (server, database) = try await freshPostgresDatabase()
        for _ in 1 ... 2 {
            try await AppDatabase.open(postgres: try PostgresAddress(url: server.url(database: database)), maxConnections: 1).close()
        }
        let recorded = try await server.psql(
            "SELECT identifier FROM \(PostgresMigrations.recordTable) ORDER BY applied_order", database: database
        )
        #expect(Self.lines(recorded) == PostgresMigrations.history.map(\.identifier))
        let seed = try await server.psql(
            "SELECT scanner_id, revision, scanning, mode, store_data FROM switch_revision", database: database
        )
        #expect(Self.lines(seed) == ["default|1|f|locate|f"])
    }

    /// The same statements, in the common dialect, on both: the triggers bump the survey
    /// version alike and the checks refuse the same rows.
    @Test func triggersAndChecksBehaveAsOnSQLite() async throws {
        let (server, database) = try await Self.migratedDatabase()
        let sqlite = try AppDatabase.inMemory().writer
        let surveyChanges = [
            "INSERT INTO floor (building, name, level) VALUES ('Main', 'Ground', 0)",
            "UPDATE floor SET name = 'Renamed'",
            "UPDATE floor SET level = 1",
            "INSERT INTO room (floor_id, name) SELECT id, 'Lab' FROM floor",
            "INSERT INTO location (room_id, name, x, y) SELECT id, 'Desk', 1, 2 FROM room",
            "UPDATE location SET x = 1",
            "UPDATE location SET x = 3",
            "DELETE FROM floor",
        ]
        for statement in surveyChanges {
            _ = try await server.psql(statement, database: database)
            try await sqlite.write { db in try db.execute(sql: statement) }
        }
        let version = try await server.psql("SELECT version FROM survey_version", database: database)
        let sqliteVersion = try await sqlite.read { db in try Int.fetchOne(db, sql: "SELECT version FROM survey_version") }
        #expect(Self.lines(version) == ["\(sqliteVersion ?? -1)"])
        // 1, then: the floor made, its level changed, the location made, moved, and deleted with its floor.
        #expect(sqliteVersion == 7)

        let refused = [
            "INSERT INTO presence_event (scanner_id, kind, time_ms) VALUES ('default', 'missingTagHeard', 0)",
            "INSERT INTO presence_event (scanner_id, kind, time_ms) VALUES ('default', 'entered', 0)",
            "INSERT INTO token (name, role, scanner_id, hash, created_ms) VALUES ('t', 'admin', 'default', "
                + "(SELECT hash FROM token LIMIT 0), 0)",
        ]
        for statement in refused {
            await #expect(throws: HarnessError.self, "PostgreSQL: \(statement)") { _ = try await server.psql(statement, database: database) }
            await #expect(throws: DatabaseError.self, "SQLite: \(statement)") { try await sqlite.write { db in try db.execute(sql: statement) } }
        }
    }

    // MARK: - Helpers

    /// A fresh database with every PostgreSQL migration applied, each in its own transaction
    /// with its record, as the PostgreSQL store will apply them.
    static func migratedDatabase() async throws -> (PostgresServer, String) {
        let (server, database) = try await freshPostgresDatabase()
        _ = try await server.psql(PostgresMigrations.createRecordTable, database: database)
        for (identifier, sql) in PostgresMigrations.history {
            _ = try await server.psql("""
                BEGIN;
                \(sql)
                INSERT INTO \(PostgresMigrations.recordTable) (identifier) VALUES ('\(identifier)');
                COMMIT;
                """, database: database)
        }
        return (server, database)
    }

    static func sqliteColumns(_ writer: any DatabaseWriter) async throws -> [ColumnShape] {
        try await writer.read { db in
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'
                ORDER BY name
                """)
            return try tables.flatMap { table in
                try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
                    .map { row in
                        let name: String = row["name"]
                        let primaryKey = (row["pk"] as Int) > 0
                        return ColumnShape(
                            table: table, name: name, type: postgresType(sqlite: row["type"], column: "\(table).\(name)"),
                            nullable: !(row["notnull"] as Bool) && !primaryKey, primaryKey: primaryKey
                        )
                    }
            }
        }
    }

    static func postgresType(sqlite type: String, column: String) -> String {
        switch type.uppercased() {
        case "INTEGER": booleanColumns.contains(column) ? "boolean" : "bigint"
        case "REAL": "double precision"
        case "BLOB": uuidColumns.contains(column) ? "uuid" : "bytea"
        default: type.lowercased()
        }
    }

    static func postgresColumns(_ server: PostgresServer, _ database: String) async throws -> [ColumnShape] {
        let printed = try await server.psql("""
            SELECT c.table_name, c.column_name, c.data_type, c.is_nullable,
                EXISTS (
                    SELECT 1 FROM information_schema.table_constraints t
                    JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name, table_name)
                    WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_name = c.table_name AND k.column_name = c.column_name
                )
            FROM information_schema.columns c
            WHERE c.table_schema = 'public' AND c.table_name <> '\(PostgresMigrations.recordTable)'
            ORDER BY c.table_name, c.ordinal_position
            """, database: database)
        return lines(printed).map { line in
            let field = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return ColumnShape(table: field[0], name: field[1], type: field[2], nullable: field[3] == "YES", primaryKey: field[4] == "t")
        }
    }

    static func lines(_ printed: String) -> [String] {
        printed.split(separator: "\n").map(String.init)
    }
}
