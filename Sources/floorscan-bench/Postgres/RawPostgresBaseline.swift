import Dispatch
import Foundation
import Harness

/// The raw PostgreSQL baseline, the twin of ``RawInsertBaseline``: a database made from
/// switchd's by `CREATE DATABASE … TEMPLATE` while switchd was stopped (so the same tables,
/// indexes, triggers, foreign keys and setup rows, on the same server), kept in step with it.
/// Each round takes the rows switchd stored since the last one (`COPY … TO STDOUT`, untimed) and
/// times putting the same rows in with `COPY … FROM STDIN`, one transaction per switchd batch,
/// from one psql process reading a script: the fastest honest way to load rows into PostgreSQL
/// (issue 35 measured one COPY at 66,000 rows/s here). A round's script is written before the
/// clock starts; psql's start and connection are timed (milliseconds against seconds).
///
/// ``RawInsertBaseline/Work/readingsOnly`` copies only the readings (the batch rows go in
/// untimed first); ``RawInsertBaseline/Work/likeSwitchd`` puts in, in each batch's transaction,
/// the batch row, its readings and its emitter summary cells, upserted with switchd's own
/// statement. Neither writes switchd's feed mark: that is switchd's design, and counts against it.
final class RawPostgresBaseline {
    private let server: PostgresServer
    private let live: String
    private let copy: String
    private let work: RawInsertBaseline.Work
    private let folder: TemporaryFolder
    private let columns: [String]
    private let batchColumns: [String]
    private var lastSequence: Int64
    private var lastBatch: Int64

    /// A baseline writing into `copy`, a database templated from `live` (switchd's); the rows
    /// switchd stores from now on are the ones it will copy.
    init(server: PostgresServer, live: String, copy: String, work: RawInsertBaseline.Work, folder: TemporaryFolder) async throws {
        self.server = server
        self.live = live
        self.copy = copy
        self.work = work
        self.folder = folder
        columns = try await Self.columns(of: "measurement", on: server, in: live).filter { $0 != "sequence" }
        batchColumns = try await Self.columns(of: "batch", on: server, in: live)
        (lastSequence, lastBatch) = try await Self.ends(on: server, in: live)
    }

    private static func columns(of table: String, on server: PostgresServer, in database: String) async throws -> [String] {
        try await server.psql(
            "SELECT column_name FROM information_schema.columns WHERE table_name = '\(table)' ORDER BY ordinal_position", database: database
        ).split(separator: "\n").map(String.init)
    }

    private static func ends(on server: PostgresServer, in database: String) async throws -> (Int64, Int64) {
        let line = try await server.psql(
            "SELECT coalesce(max(sequence), 0) || '|' || (SELECT coalesce(max(id), 0) FROM batch) FROM measurement", database: database
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = line.split(separator: "|").compactMap { Int64($0) }
        guard parts.count == 2 else { throw HarnessError("the feed's ends in \(database): \(line)") }
        return (parts[0], parts[1])
    }

    /// Puts in the rows switchd stored since the last round; returns rows per second.
    func round() async throws -> Double {
        let (sequence, batch) = try await Self.ends(on: server, in: live)
        let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        let batchQuoted = batchColumns.map { "\"\($0)\"" }.joined(separator: ", ")
        let rows = try await server.psql(
            "COPY (SELECT \(quoted) FROM measurement WHERE sequence > \(lastSequence) AND sequence <= \(sequence) ORDER BY sequence) TO STDOUT",
            database: live
        ).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let batches = try await server.psql(
            "COPY (SELECT \(batchQuoted) FROM batch WHERE id > \(lastBatch) AND id <= \(batch) ORDER BY id) TO STDOUT", database: live
        ).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !rows.isEmpty else { throw HarnessError("switchd stored no rows this round") }
        (lastSequence, lastBatch) = (sequence, batch)

        let batchIDColumn = try index(of: "batch_id", in: columns)
        let batchLineByID = Dictionary(try batches.map { line in
            (try field(0, of: line), line)
        }) { first, _ in first }
        var script = ""
        if work == .readingsOnly {
            script = "COPY batch (\(batchQuoted)) FROM STDIN;\n" + batches.joined(separator: "\n") + "\n\\.\n"
            try await run(script, name: "batches")
            script = ""
        }
        for group in groupedByBatch(rows, column: batchIDColumn) {
            script += "BEGIN;\n"
            if work == .likeSwitchd {
                guard let first = group.first else { continue }
                let id = try field(batchIDColumn, of: first)
                guard let line = batchLineByID[id] else { throw HarnessError("readings of batch \(id), which switchd has no row for") }
                script += "COPY batch (\(batchQuoted)) FROM STDIN;\n\(line)\n\\.\n"
            }
            script += "COPY measurement (\(quoted)) FROM STDIN;\n" + group.joined(separator: "\n") + "\n\\.\n"
            if work == .likeSwitchd {
                script += try EmitterCellUpsert(columns: columns).statement(for: group) + ";\n"
            }
            script += "COMMIT;\n"
        }
        let path = folder.path("raw-\(copy).sql")
        try script.write(toFile: path, atomically: false, encoding: .utf8)
        let start = DispatchTime.now().uptimeNanoseconds
        try await server.psql(file: path, database: copy)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(rows.count) / seconds
    }

    private func run(_ script: String, name: String) async throws {
        let path = folder.path("raw-\(copy)-\(name).sql")
        try script.write(toFile: path, atomically: false, encoding: .utf8)
        try await server.psql(file: path, database: copy)
    }

    /// Runs of lines with the same batch: switchd's batches, in the order it stored them.
    private func groupedByBatch(_ rows: [String], column: Int) -> [ArraySlice<String>] {
        var groups: [ArraySlice<String>] = []
        var start = 0
        var current = try? field(column, of: rows[0])
        for index in rows.indices.dropFirst() {
            let id = try? field(column, of: rows[index])
            if id != current {
                groups.append(rows[start..<index])
                start = index
                current = id
            }
        }
        groups.append(rows[start...])
        return groups
    }
}

func index(of column: String, in columns: [String]) throws -> Int {
    guard let index = columns.firstIndex(of: column) else { throw HarnessError("no column \(column) in \(columns)") }
    return index
}

/// Field `index` of a line of `COPY … TO STDOUT` text (tab-separated, `\N` for NULL, still escaped).
func field(_ index: Int, of line: String) throws -> String {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
    guard index < fields.count else { throw HarnessError("a copied row has \(fields.count) fields, not \(index + 1): \(line.prefix(200))") }
    return String(fields[index])
}
