import DaemonSupport
import Dispatch
import Foundation
import GRDBSQLite
import Harness

/// The raw SQLite baseline, run round by round between switchd's rounds: a copy of switchd's
/// database (`VACUUM INTO`, taken once, so same table, indexes, triggers and foreign keys) kept
/// in step with it. Each round takes the readings switchd stored since the last one (reading
/// switchd's file through a read-only `ATTACH`) and times inserting the same rows with
/// `sqlite3_prepare_v2` / `sqlite3_bind_value` / `sqlite3_step`, one transaction per batch — the
/// fastest honest way to put those rows into that schema (WAL, synchronous=FULL, foreign keys on)
/// on this machine.
///
/// Two kinds of work, one copy each (``Work``): the readings alone, as this baseline always did,
/// and everything switchd's ingest stores for a batch (its `batch` row, its readings, and the
/// `emitter_cell` summary that ingest keeps once per batch since `v4-emitter-summary-by-batch`).
final class RawInsertBaseline {
    enum Work {
        /// Only the `measurement` rows are timed; the batch rows are copied untimed before, and
        /// the emitter summary is left out (it counts against switchd).
        case readingsOnly
        /// In each batch's transaction, as switchd's ingest does: the `batch` row (with its final
        /// `stored` count), the readings, and one `emitter_cell` upsert per cell they fall in.
        case likeSwitchd
    }

    private let db: SQLiteHandle
    private let work: Work
    private let batchSize: Int
    private let columnList: String
    private let batchIDColumn: Int
    private let insert: OpaquePointer?
    private let insertBatch: OpaquePointer?
    private let cells: RawEmitterCells
    private var lastSequence: Int64

    init(database: String, copyTo: String, batchSize: Int, work: Work) throws {
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
        self.work = work
        self.batchSize = batchSize
        let columns = try db.columns(of: "measurement").filter { $0 != "sequence" }
        columnList = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        batchIDColumn = columns.firstIndex(of: "batch_id")!
        insert = try db.prepare("INSERT INTO main.measurement (\(columnList)) VALUES (\(Self.placeholders(columns.count)))")
        insertBatch = try db.prepare("INSERT INTO main.batch VALUES (\(Self.placeholders(try db.columns(of: "batch").count)))")
        cells = try RawEmitterCells(db, columns: columns)
        lastSequence = try db.integer("SELECT coalesce(max(sequence), 0) FROM main.measurement")
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_finalize(insertBatch)
        db.close()
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Inserts the rows switchd stored since the last round; returns rows per second and the
    /// calling thread's CPU seconds per row.
    func round() throws -> (rowsPerSecond: Double, cpuSecondsPerRow: Double) {
        let newBatches = "FROM live.batch WHERE id > (SELECT coalesce(max(id), 0) FROM main.batch)"
        let batchRows: [[OpaquePointer?]]
        switch work {
        case .readingsOnly:
            try db.exec("INSERT INTO main.batch SELECT * \(newBatches)")
            batchRows = []
        case .likeSwitchd:
            batchRows = try db.readAll("SELECT * \(newBatches) ORDER BY id")
        }
        let rows = try db.readAll("SELECT \(columnList) FROM live.measurement WHERE sequence > \(lastSequence) ORDER BY sequence")
        defer { (rows + batchRows).joined().forEach { sqlite3_value_free($0) } }
        guard !rows.isEmpty else { throw HarnessError("switchd stored no rows this round") }
        lastSequence = try db.integer("SELECT max(sequence) FROM live.measurement")
        let groups = work == .likeSwitchd ? groupedByBatch(rows) : stride(from: 0, to: rows.count, by: batchSize).map {
            rows[$0..<min($0 + batchSize, rows.count)]
        }
        let batchByID = Dictionary(batchRows.map { (sqlite3_value_int64($0[0]), $0) }) { first, _ in first }
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = CPUTime.thread
        for group in groups {
            try db.exec("BEGIN IMMEDIATE")
            if work == .likeSwitchd {
                guard let batch = batchByID[sqlite3_value_int64(group.first![batchIDColumn])] else {
                    throw HarnessError("readings of a batch switchd has no row for")
                }
                try step(insertBatch, binding: batch)
            }
            for row in group {
                try step(insert, binding: row)
                if work == .likeSwitchd { cells.add(row) }
            }
            try cells.save(db)
            try db.exec("COMMIT")
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpuSeconds = (CPUTime.thread - cpuStart) / .seconds(1)
        return (Double(rows.count) / seconds, cpuSeconds / Double(rows.count))
    }

    /// Runs of rows with the same batch: switchd's batches, in the order it stored them.
    private func groupedByBatch(_ rows: [[OpaquePointer?]]) -> [ArraySlice<[OpaquePointer?]>] {
        var groups: [ArraySlice<[OpaquePointer?]>] = []
        var start = 0
        for index in rows.indices.dropFirst() where sqlite3_value_int64(rows[index][batchIDColumn]) != sqlite3_value_int64(rows[start][batchIDColumn]) {
            groups.append(rows[start..<index])
            start = index
        }
        groups.append(rows[start...])
        return groups
    }

    private func step(_ statement: OpaquePointer?, binding values: [OpaquePointer?]) throws {
        for (index, value) in values.enumerated() {
            sqlite3_bind_value(statement, Int32(index + 1), value)
        }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw HarnessError("insert: \(db.message)") }
        sqlite3_reset(statement)
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
