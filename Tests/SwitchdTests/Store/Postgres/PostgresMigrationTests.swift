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
        "presence_state.away", "tag.missing", "tag.missing_heard", "mqtt_outbox.retain", "mqtt_outbox_dead.retain",
        "tag_presence_state.settled", "tag_presence_state.away", "scanner_health.online", "emitter_telemetry.battery_low", "beacon_health.faded",
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
    /// SQLite compares text byte by byte (`BINARY`); PostgreSQL by the database's collation,
    /// which on most servers is a language's (`en_US.UTF-8`, or ICU's `en-US` as the test
    /// cluster is made: `a` before `B`). Every text column is therefore `COLLATE "C"`, so that
    /// lists ordered by an ID or a name come in the same order from both databases.
    @Test func everyTextColumnComparesBytesAsOnSQLite() async throws {
        let (server, database) = try await Self.migratedDatabase()
        let otherCollations = try await server.psql("""
            SELECT table_name || '.' || column_name || ' ' || coalesce(collation_name, 'the database default')
            FROM information_schema.columns
            WHERE table_schema = 'public' AND data_type = 'text' AND collation_name IS DISTINCT FROM 'C'
            ORDER BY 1
            """, database: database)
        #expect(Self.lines(otherCollations) == [])

        let insert = "INSERT INTO scanner (id, name) VALUES ('b-pi', 'b'), ('B-pi', 'B'), ('a-pi', 'a'), ('_-pi', '_')"
        let select = "SELECT id FROM scanner WHERE id <> 'default' ORDER BY id"
        let postgres = try await server.psql("\(insert); \(select)", database: database)
        let sqlite = try await AppDatabase.inMemory().writer.write { db in
            try db.execute(sql: insert)
            return try String.fetchAll(db, sql: select)
        }
        #expect(sqlite == ["B-pi", "_-pi", "a-pi", "b-pi"])
        #expect(Self.lines(postgres) == sqlite)
        let defaultOrder = try await server.psql("SELECT string_agg(x, ',' ORDER BY x) FROM (VALUES ('a'), ('B')) AS v(x)", database: database)
        #expect(Self.lines(defaultOrder) == ["a,B"], "the test cluster's own collation is a language's, not bytes")
    }

    /// A database whose sessions commit without waiting for the disk is refused before anything
    /// is migrated, with the setting named; the same database with it back on opens.
    @Test func aServerThatWouldLoseAcknowledgedCommitsIsRefused() async throws {
        let (server, database) = try await freshPostgresDatabase()
        let address = try PostgresAddress(url: server.url(database: database))
        _ = try await server.psql("ALTER DATABASE \"\(database)\" SET synchronous_commit = off", database: "postgres")
        await #expect {
            try await AppDatabase.open(postgres: address, maxConnections: 1).close()
        } throws: { error in
            "\(error)".contains("synchronous_commit = off") && error is NotDurable
        }
        let tables = try await server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: database)
        #expect(Self.lines(tables) == ["0"], "nothing migrated")

        _ = try await server.psql("ALTER DATABASE \"\(database)\" SET synchronous_commit = local", database: "postgres")
        try await AppDatabase.open(postgres: address, maxConnections: 1).close()
    }

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

    /// A database a newer switchd migrated (a migration this version does not know recorded) is
    /// refused before anything runs, the unknown migration named; nothing of it is changed.
    @Test func aDatabaseMigratedByANewerSwitchdIsRefused() async throws {
        let (server, database) = try await freshPostgresDatabase()
        let address = try PostgresAddress(url: server.url(database: database))
        try await AppDatabase.open(postgres: address, maxConnections: 1).close()
        _ = try await server.psql(
            "INSERT INTO \(PostgresMigrations.recordTable) (identifier) VALUES ('v9-from-a-newer-switchd')", database: database
        )
        _ = try await server.psql("DROP TABLE enrolment_code", database: database)
        await #expect(throws: NewerSchemaError(unknownMigrations: ["v9-from-a-newer-switchd"])) {
            try await AppDatabase.open(postgres: address, maxConnections: 1).close()
        }
        let tables = try await server.psql("SELECT count(*) FROM pg_tables WHERE tablename = 'enrolment_code'", database: database)
        #expect(Self.lines(tables) == ["0"], "no migration ran again")
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
            "INSERT INTO presence_event (kind, time_ms) VALUES ('away', 0)",
            "INSERT INTO token (name, role, scanner_id, hash, created_ms) VALUES ('t', 'admin', 'default', "
                + "(SELECT hash FROM token LIMIT 0), 0)",
        ]
        for statement in refused {
            await #expect(throws: HarnessError.self, "PostgreSQL: \(statement)") { _ = try await server.psql(statement, database: database) }
            await #expect(throws: DatabaseError.self, "SQLite: \(statement)") { try await sqlite.write { db in try db.execute(sql: statement) } }
        }
    }

    /// Main's two migrations after `v4-tag-presence-events` (and only those: the insert trigger
    /// goes in `v4-emitter-summary-by-batch`, see ``PostgresScannerDeleteAndWalkMigrationTests``), applied to a database that already
    /// holds readings and a tag event: the emitter cells are filled alike, the tag event moves
    /// into `presence_event` (once, beside its existing twin) without a delivery for it, and the
    /// cell triggers then add, move and remove readings alike.
    @Test func readingsAndTagEventsMigrateAndTheCellTriggersBehaveAsOnSQLite() async throws {
        let (server, database) = try await freshPostgresDatabase()
        let before = PostgresMigrations.history.prefix { $0.identifier != "v4-emitter-summary" }
        for (_, sql) in before { _ = try await server.psql(sql, database: database) }
        let sqlite = try DatabaseQueue(configuration: AppDatabase.configuration())
        try AppDatabase.migrator.migrate(sqlite, upTo: "v4-tag-presence-events")

        func run(_ statements: [(sqlite: String, postgres: String)]) async throws {
            for statement in statements {
                _ = try await server.psql(statement.postgres, database: database)
                try await sqlite.write { db in try db.execute(sql: statement.sqlite) }
            }
        }
        func expectSameCellsAndEvents(_ step: String) async throws {
            let cells = try await server.psql(Self.cellLines(hex: "encode(beacon_uuid, 'hex')"), database: database)
            let sqliteCells = try await sqlite.read { db in try String.fetchAll(db, sql: Self.cellLines(hex: "lower(hex(beacon_uuid))")) }
            #expect(Self.lines(cells) == sqliteCells, "\(step)")
            let events = try await server.psql(Self.eventLines, database: database)
            let sqliteEvents = try await sqlite.read { db in try String.fetchAll(db, sql: Self.eventLines) }
            #expect(Self.lines(events) == sqliteEvents, "\(step)")
        }

        try await run(Self.commonDialect([
            "INSERT INTO floor (building, name, level) VALUES ('Main', 'Ground', 0)",
            "INSERT INTO room (floor_id, name) VALUES (1, 'Lab'), (1, 'Hall')",
            "INSERT INTO location (room_id, name, x, y) VALUES (1, 'Desk', 1, 2), (2, 'Door', 3, 4)",
            "INSERT INTO tag (name, identity, tx_power, missing, height, metadata) VALUES ('Cart', 'ibeacon:x', -59, TRUE, 1, '{}')",
            "INSERT INTO scanner_placement (scanner_id, floor_id, x, y, height, path_loss_exponent) VALUES ('default', 1, 0, 0, 1, 2)",
            "INSERT INTO webhook (url, secret, events, created_ms) VALUES ('http://127.0.0.1:9/', 's', 'missingTagHeard', 0)",
            "INSERT INTO tag_event (tag_id, kind, time_ms, scanner_id) VALUES (1, 'missingTagHeard', 100, 'default'), "
                + "(1, 'missingTagHeard', 200, 'default')",
            "INSERT INTO presence_event (scanner_id, kind, time_ms, tag_id) VALUES ('default', 'missingTagHeard', 200, 1)",
        ]) + [Self.batch] + Self.readings(first: 1, [
            ("wifi", 1, "NULL", "survey", "1", "1", 1_000, -60, "'lab'"),
            ("wifi", 1, "NULL", "survey", "1", "1", 3_000, -50, "'lab-5g'"),
            ("wifi", 1, "NULL", "survey", "1", "1", 2_000, -70, "'old'"),
            ("ble", 0, "1", "locate", "NULL", "NULL", 1_500, -80, "NULL"),
        ]))
        let deliveriesBefore = try await server.psql("SELECT count(*) FROM webhook_delivery", database: database)
        let these = PostgresMigrations.history.dropFirst(before.count).prefix { $0.identifier != "v4-scanner-delete" }
        for (identifier, sql) in these {
            _ = try await server.psql(sql, database: database)
            try AppDatabase.migrator.migrate(sqlite, upTo: identifier)
        }
        try await expectSameCellsAndEvents("filled by the migration")
        let filled = try await server.psql(Self.cellLines(hex: "encode(beacon_uuid, 'hex')"), database: database)
        #expect(Self.lines(filled) == [
            "ble|0|\(String(format: "%032x", 5_001))|1|2|locate|0|0|1|-80|-80|1500|1500|",
            "wifi|1||0|0|survey|1|1|3|-180|-50|1000|3000|lab-5g",
        ])
        #expect(Self.lines(try await server.psql("SELECT count(*) FROM webhook_delivery", database: database)) == Self.lines(deliveriesBefore))
        #expect(try await sqlite.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM presence_event") } == 2)

        try await run(Self.readings(first: 5, [
            ("wifi", 1, "NULL", "survey", "1", "1", 4_000, -40, "'newest'"),
            ("ble", 0, "1", "locate", "NULL", "NULL", 500, -90, "NULL"),
            ("wifi", 2, "NULL", "locate", "NULL", "NULL", 100, -65, "NULL"),
        ]))
        try await expectSameCellsAndEvents("added by the insert trigger")
        try await run(Self.commonDialect([
            "UPDATE measurement SET location_id = 2, room_id = 2 WHERE time_ms = 3000",
            "DELETE FROM measurement WHERE time_ms = 100",
            "DELETE FROM measurement WHERE time_ms = 1500",
        ]))
        try await expectSameCellsAndEvents("moved and removed by the update and delete triggers")
    }

    // MARK: - Helpers

    /// Each emitter cell as one line, the beacon's bytes in lower-case hex by `hex`.
    static func cellLines(hex: String) -> String {
        """
        SELECT kind || '|' || address || '|' || \(hex) || '|' || major || '|' || minor || '|' || mode || '|' || room_id
            || '|' || location_id || '|' || readings || '|' || rssi_sum || '|' || max_rssi || '|' || first_ms
            || '|' || last_ms || '|' || COALESCE(last_ssid, '')
        FROM emitter_cell ORDER BY kind, address, beacon_uuid, major, minor, mode, room_id, location_id
        """
    }

    static let eventLines = """
        SELECT id || '|' || scanner_id || '|' || kind || '|' || time_ms || '|' || COALESCE(tag_id, 0) || '|' || COALESCE(floor_id, 0)
        FROM presence_event ORDER BY id
        """

    static func commonDialect(_ statements: [String]) -> [(sqlite: String, postgres: String)] {
        statements.map { ($0, $0) }
    }

    /// UUID number `n` as each database writes it: GRDB's 16-byte blob and PostgreSQL's `uuid`.
    static func uuid(_ n: Int) -> (sqlite: String, postgres: String) {
        let hex = String(format: "%032x", n)
        return ("x'\(hex)'", "'\(hex)'::uuid")
    }

    /// Batch 1 of scanner `default`, for ``readings(first:_:)``.
    static let batch = (
        sqlite: "INSERT INTO batch (uuid, scanner_id, revision, received_ms, stored, discarded) VALUES (\(uuid(1_000).sqlite), 'default', 1, 0, 0, FALSE)",
        postgres: "INSERT INTO batch (uuid, scanner_id, revision, received_ms, stored, discarded) VALUES (\(uuid(1_000).postgres), 'default', 1, 0, 0, FALSE)"
    )

    /// Readings in batch 1, numbered from `first` for their UUIDs: kind, address, beacon (a
    /// UUID number or NULL), mode, room, location, time, RSSI and SSID.
    static func readings(
        first: Int, _ rows: [(String, Int, String, String, String, String, Int, Int, String)]
    ) -> [(sqlite: String, postgres: String)] {
        rows.enumerated().map { offset, row in
            let (kind, address, beacon, mode, room, location, time, rssi, ssid) = row
            func statement(_ uuid: (Int) -> String) -> String {
                let beaconValue = beacon == "NULL" ? "NULL" : uuid(Int(beacon)! + 5_000)
                let beaconKey = kind == "ble" ? "1, 2" : "NULL, NULL"
                return """
                    INSERT INTO measurement (uuid, batch_id, scanner_id, revision, mode, room_id, location_id, kind,
                        time_ms, rssi, scan, address, ssid, beacon_uuid, major, minor)
                    VALUES (\(uuid(first + offset)), 1, 'default', 1, '\(mode)', \(room), \(location), '\(kind)',
                        \(time), \(rssi), 1, \(address), \(ssid), \(beaconValue), \(beaconKey))
                    """
            }
            return (statement { Self.uuid($0).sqlite }, statement { Self.uuid($0).postgres })
        }
    }


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
