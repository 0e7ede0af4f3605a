import Dispatch
import Foundation
import GRDBSQLite
import Harness

/// The raw SQLite baseline, run round by round between switchd's rounds: a copy of switchd's
/// database (`VACUUM INTO`, taken once, so same table, indexes, triggers and foreign keys; the
/// `emitter_cell` summary, which switchd's ingest updates once per batch and no trigger keeps
/// since `v4-emitter-summary-by-batch`, is left out here and counts against switchd) kept
/// in step with it. Each round takes the readings switchd stored since the last one (reading
/// switchd's file through a read-only `ATTACH`), copies their batch rows untimed, and times
/// inserting the same rows with `sqlite3_prepare_v2` / `sqlite3_bind_value` / `sqlite3_step`, one
/// transaction per `batchSize` rows — the fastest honest way to put those rows into that schema
/// (WAL, synchronous=FULL, foreign keys on) on this machine.
final class RawInsertBaseline {
    private let db: SQLiteHandle
    private let batchSize: Int
    private let columnList: String
    private let insert: OpaquePointer?
    private var lastSequence: Int64

    init(database: String, copyTo: String, batchSize: Int) throws {
        try? FileManager.default.removeItem(atPath: copyTo)
        let live = try SQLiteHandle(path: database)
        try live.exec("VACUUM INTO '\(copyTo)'")
        live.close()
        db = try SQLiteHandle(path: copyTo)
        try db.exec("PRAGMA journal_mode=WAL")
        // The same durability switchd promises: an acknowledged batch survives a power cut.
        try db.exec("PRAGMA synchronous=FULL")
        try db.exec("PRAGMA foreign_keys=ON")
        try db.exec("ATTACH 'file:\(database)?mode=ro' AS live")
        self.batchSize = batchSize
        let columns = try db.columns(of: "measurement").filter { $0 != "sequence" }
        columnList = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        insert = try db.prepare("INSERT INTO main.measurement (\(columnList)) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
        lastSequence = try db.integer("SELECT coalesce(max(sequence), 0) FROM main.measurement")
    }

    deinit {
        sqlite3_finalize(insert)
        db.close()
    }

    /// Inserts the rows switchd stored since the last round; returns rows per second.
    func round() throws -> Double {
        try db.exec("INSERT INTO main.batch SELECT * FROM live.batch WHERE id > (SELECT coalesce(max(id), 0) FROM main.batch)")
        let rows = try db.readAll("SELECT \(columnList) FROM live.measurement WHERE sequence > \(lastSequence) ORDER BY sequence")
        defer { rows.joined().forEach { sqlite3_value_free($0) } }
        guard !rows.isEmpty else { throw HarnessError("switchd stored no rows this round") }
        lastSequence = try db.integer("SELECT max(sequence) FROM live.measurement")
        let start = DispatchTime.now().uptimeNanoseconds
        for batch in stride(from: 0, to: rows.count, by: batchSize) {
            try db.exec("BEGIN IMMEDIATE")
            for row in rows[batch..<min(batch + batchSize, rows.count)] {
                for (index, value) in row.enumerated() {
                    sqlite3_bind_value(insert, Int32(index + 1), value)
                }
                guard sqlite3_step(insert) == SQLITE_DONE else { throw HarnessError("insert: \(db.message)") }
                sqlite3_reset(insert)
            }
            try db.exec("COMMIT")
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(rows.count) / seconds
    }
}

/// The few sqlite3 calls the baseline needs, each checked.
final class SQLiteHandle {
    private var handle: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open(path, &handle) == SQLITE_OK else { throw HarnessError("open \(path): \(String(cString: sqlite3_errmsg(handle)))") }
    }

    var message: String { String(cString: sqlite3_errmsg(handle)) }

    func close() { sqlite3_close(handle) }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw HarnessError("\(sql): \(message)") }
    }

    func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw HarnessError("\(sql): \(message)") }
        return statement
    }

    func integer(_ sql: String) throws -> Int64 {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw HarnessError("\(sql): no row") }
        return sqlite3_column_int64(statement, 0)
    }

    func columns(of table: String) throws -> [String] {
        let statement = try prepare("SELECT name FROM pragma_table_info('\(table)')")
        defer { sqlite3_finalize(statement) }
        var names: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            names.append(String(cString: sqlite3_column_text(statement, 0)))
        }
        return names
    }

    /// Every row as copies of its values (free each with `sqlite3_value_free`).
    func readAll(_ sql: String) throws -> [[OpaquePointer?]] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var rows: [[OpaquePointer?]] = []
        let count = sqlite3_column_count(statement)
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<count).map { sqlite3_value_dup(sqlite3_column_value(statement, $0)) })
        }
        return rows
    }
}
