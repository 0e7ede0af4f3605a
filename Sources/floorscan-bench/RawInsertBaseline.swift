import Dispatch
import Foundation
import GRDBSQLite
import Harness

/// The raw SQLite baseline: copies switchd's database file, reads back the measurement rows
/// switchd stored, empties the table and inserts the same rows with `sqlite3_prepare_v2` /
/// `sqlite3_bind_value` / `sqlite3_step`, one transaction per batch — the fastest honest way to put
/// those rows into that schema (same table, indexes, foreign keys, WAL, synchronous=FULL) on this
/// machine.
struct RawInsertBaseline {
    let database: String
    let copyTo: String
    let batchSize: Int

    /// Inserts the first `untimedRows` (switchd's warm-up batch) untimed, then times each run of
    /// `roundRows` rows (one benchmark round) on its own; returns rows per second of each.
    func run(untimedRows: Int, roundRows: Int) throws -> [Double] {
        try? FileManager.default.removeItem(atPath: copyTo)
        try FileManager.default.copyItem(atPath: database, toPath: copyTo)
        let db = try SQLiteHandle(path: copyTo)
        defer { db.close() }
        try db.exec("PRAGMA journal_mode=WAL")
        // The same durability switchd promises: an acknowledged batch survives a power cut.
        try db.exec("PRAGMA synchronous=FULL")
        try db.exec("PRAGMA foreign_keys=ON")

        let columns = try db.columns(of: "measurement").filter { $0 != "sequence" }
        let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        let rows = try db.readAll("SELECT \(list) FROM measurement ORDER BY sequence")
        defer { rows.joined().forEach { sqlite3_value_free($0) } }
        guard !rows.isEmpty else { throw HarnessError("switchd stored no rows to replay") }
        try db.exec("DELETE FROM measurement")

        let insert = try db.prepare("INSERT INTO measurement (\(list)) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
        defer { sqlite3_finalize(insert) }
        func insertBatches(_ range: Range<Int>) throws {
            for batch in stride(from: range.lowerBound, to: range.upperBound, by: batchSize) {
                try db.exec("BEGIN IMMEDIATE")
                for row in rows[batch..<min(batch + batchSize, range.upperBound)] {
                    for (index, value) in row.enumerated() {
                        sqlite3_bind_value(insert, Int32(index + 1), value)
                    }
                    guard sqlite3_step(insert) == SQLITE_DONE else { throw HarnessError("insert: \(db.message)") }
                    sqlite3_reset(insert)
                }
                try db.exec("COMMIT")
            }
        }
        try insertBatches(0..<min(untimedRows, rows.count))
        var rates: [Double] = []
        for roundStart in stride(from: untimedRows, to: rows.count - roundRows + 1, by: roundRows) {
            let start = DispatchTime.now().uptimeNanoseconds
            try insertBatches(roundStart..<(roundStart + roundRows))
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            rates.append(Double(roundRows) / seconds)
        }
        guard !rates.isEmpty else { throw HarnessError("switchd stored \(rows.count) rows, fewer than one round") }
        return rates
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
