import Foundation
import GRDB
import Harness
import Testing
@testable import SwitchdStore

/// Ingest binds a reading's values through SQLite's C API (`MeasurementRecord.insert(with:in:)`):
/// the row stored is the one GRDB stores from `insertArguments`, value for value and type for
/// type, a known reading ID is skipped, and a refused row throws SQLite's error and leaves the
/// statement usable.
@Suite("Measurement insert")
struct MeasurementInsertTests {
    static func record(_ uuid: UUID, _ values: [String: (any DatabaseValueConvertible)?]) throws -> MeasurementRecord {
        var row: [String: (any DatabaseValueConvertible)?] = [
            "sequence": nil, "uuid": uuid, "batch_id": 1, "scanner_id": "default", "revision": 1, "mode": "survey",
            "room_id": nil, "location_id": nil, "time_ms": 1_800_000_000_123, "rssi": -61, "scan": 4, "address": 0x02_00_00_00_00_01,
            "ssid": nil, "frequency_mhz": nil, "beacon_uuid": nil, "major": nil, "minor": nil, "tx_power": nil,
        ]
        row.merge(values) { _, given in given }
        return try MeasurementRecord(row: Row(row))
    }

    /// Runs `body` in a write of a fresh database holding batch row 1, with the cached statement
    /// ingest inserts readings with.
    static func withInsertStatement(_ body: @escaping @Sendable (Database, Statement) throws -> Void) async throws {
        let folder = try TemporaryFolder("measurement-insert")
        defer { folder.remove() }
        let database = try AppDatabase.open(stateDirectory: folder.url.path)
        try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO batch (id, uuid, scanner_id, revision, received_ms, stored, discarded) VALUES (1, x'01', 'default', 1, 0, 0, 0)")
            try body(db, try db.cachedStatement(sql: MeasurementRecord.insertSQL))
        }
    }

    static var cases: [[String: (any DatabaseValueConvertible)?]] { [
        ["kind": "wifi", "ssid": "lab", "frequency_mhz": 2437],
        ["kind": "wifi", "ssid": "", "frequency_mhz": 5180, "rssi": -127],
        ["kind": "wifi", "ssid": "Café ☕ ü", "frequency_mhz": 2412, "scan": 0, "address": 0xFF_FF_FF_FF_FF_FF],
        ["kind": "ble", "beacon_uuid": UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!, "major": 0, "minor": 65535, "tx_power": -59, "mode": "locate"],
    ] }

    @Test func storesTheRowGRDBStoresFromItsArguments() async throws {
        try await Self.withInsertStatement { db, statement in
            for values in Self.cases {
                let direct = try Self.record(UUID(), values)
                let throughGRDB = try Self.record(UUID(), values)
                #expect(try direct.insert(with: statement, in: db))
                let directSequence = db.lastInsertedRowID
                try db.execute(sql: MeasurementRecord.insertSQL, arguments: throughGRDB.insertArguments)
                let grdbSequence = db.lastInsertedRowID
                let columns = MeasurementRecord.insertedColumns.map(\.rawValue)
                let described = columns.map { "typeof(\($0)) || ':' || quote(\($0))" }.joined(separator: ", ")
                let rows = try Row.fetchAll(db, sql: "SELECT \(described) FROM measurement WHERE sequence IN (?, ?) ORDER BY sequence", arguments: [directSequence, grdbSequence])
                #expect(rows.count == 2)
                // Every column but the reading's own ID, which differs on purpose.
                #expect(Array(rows[0].databaseValues.dropFirst()) == Array(rows[1].databaseValues.dropFirst()), "\(values)")
                let storedID: String? = rows[0][0]
                #expect(storedID == "blob:X'\(direct.uuid.uuidString.replacingOccurrences(of: "-", with: ""))'", "the ID as its 16 bytes")
                #expect(try MeasurementRecord.fetchOne(db, sql: "SELECT * FROM measurement WHERE sequence = ?", arguments: [directSequence])?.uuid == direct.uuid)
            }
        }
    }

    /// Ingest binds a batch's shared columns once and then only each reading's own: Wi-Fi and BLE
    /// readings in turn store exactly what GRDB stores from their arguments, none keeping a value
    /// of the reading before it.
    @Test func aBatchsReadingsInTurnStoreWhatGRDBStores() async throws {
        try await Self.withInsertStatement { db, statement in
            var ble = Self.cases[3]
            ble["mode"] = nil
            let batch = try [Self.cases[0], ble, Self.cases[2], ble, Self.cases[1]].map { try Self.record(UUID(), $0) }
            batch[0].bindBatchColumns(to: statement.sqliteStatement)
            for reading in batch {
                #expect(try reading.insertReading(with: statement.sqliteStatement, in: db))
            }
            let columns = MeasurementRecord.insertedColumns.dropFirst().map(\.rawValue)
            let described = "SELECT " + columns.map { "typeof(\($0)) || ':' || quote(\($0))" }.joined(separator: ", ") + " FROM measurement WHERE uuid = ?"
            for reading in batch {
                var throughGRDB = reading
                throughGRDB.uuid = UUID()
                try db.execute(sql: MeasurementRecord.insertSQL, arguments: throughGRDB.insertArguments)
                let stored = try Row.fetchOne(db, sql: described, arguments: [reading.uuid])
                let expected = try Row.fetchOne(db, sql: described, arguments: [throughGRDB.uuid])
                #expect(stored != nil && stored.map { Array($0.databaseValues) } == expected.map { Array($0.databaseValues) }, "\(reading.kind) reading")
            }
        }
    }

    @Test func aKnownReadingIsSkippedAndARefusedOneThrowsWithTheStatementStillUsable() async throws {
        try await Self.withInsertStatement { db, statement in
            let reading = try Self.record(UUID(), Self.cases[0])
            #expect(try reading.insert(with: statement, in: db))
            #expect(try reading.insert(with: statement, in: db) == false, "the same reading ID again is skipped")

            var refused = Self.cases[0]
            refused["mode"] = "sideways"
            #expect {
                try Self.record(UUID(), refused).insert(with: statement, in: db)
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT
            }
            #expect(try Self.record(UUID(), Self.cases[3]).insert(with: statement, in: db), "the statement is usable after a refusal")
            // GRDB's own use of the cached statement after a refusal works too.
            try statement.execute(arguments: Self.record(UUID(), Self.cases[1]).insertArguments)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM measurement") == 3)
        }
    }
}
