import Foundation
import GRDB
import ScanContract
import Testing
@testable import SwitchdStore

/// The dashboard reads through the indexes of `v4-history-indexes` (asked of SQLite with
/// `EXPLAIN QUERY PLAN`, so a lost index or a statement SQLite would answer by reading a whole
/// table fails here), and its statements answer exactly what the statements shipped before
/// them answered, on a real database file.
@Suite("History indexes")
struct HistoryIndexTests {
    /// The dashboard's statements as they shipped before `v4-history-indexes`.
    static let shippedDashboard: [(name: String, sql: String)] = [
        ("scannersOnline", """
            SELECT COUNT(*) FROM (
                SELECT scanner_id FROM batch WHERE received_ms >= ? AND scanner_id IN (SELECT id FROM scanner)
                UNION SELECT scanner_id FROM position WHERE time_ms >= ?
            )
            """),
        ("scanners", "SELECT COUNT(*) FROM scanner"),
        ("readingsSince", "SELECT COALESCE(SUM(stored), 0) FROM batch WHERE received_ms >= ?"),
        ("positionsSince", "SELECT COUNT(*) FROM position WHERE time_ms >= ?"),
        ("locationsSurveyed", "SELECT COUNT(DISTINCT location_id) FROM measurement WHERE location_id IS NOT NULL"),
        ("locations", "SELECT COUNT(*) FROM location"),
        ("recentBatches", """
            SELECT batch.scanner_id, batch.received_ms, batch.stored, batch.discarded, switch_revision.mode
            FROM batch LEFT JOIN switch_revision
                ON switch_revision.scanner_id = batch.scanner_id AND switch_revision.revision = batch.revision
            WHERE batch.stored > 0
            ORDER BY batch.id DESC LIMIT ?
            """),
        ("recentSwitches", """
            SELECT scanner_id, revision, scanning, mode, location_id, changed_ms FROM switch_revision
            WHERE revision > 1 ORDER BY changed_ms DESC LIMIT ?
            """),
        ("dwellPositions", """
            SELECT scanner_id, time_ms, floor_id, x, y, room_id FROM position WHERE time_ms >= ?
            ORDER BY scanner_id, time_ms, id
            """),
    ]

    /// Today's statements by the same names, with the index each must read through.
    static let dashboard: [String: (sql: String, indexes: [String])] = [
        "scannersOnline": (DashboardSQL.scannersOnline, ["batch_received", "position_time"]),
        "scanners": (DashboardSQL.scanners, []),
        "readingsSince": (DashboardSQL.readingsSince, ["batch_received"]),
        "positionsSince": (DashboardSQL.positionsSince, ["position_time"]),
        "locationsSurveyed": (DashboardSQL.locationsSurveyed, ["measurement_location"]),
        "locations": (DashboardSQL.locations, []),
        "recentBatches": (DashboardSQL.recentBatches, ["batch_stored_newest"]),
        "recentSwitches": (DashboardSQL.recentSwitches, ["switch_revision_changed"]),
        "dwellPositions": (DashboardSQL.dwellPositions, ["position_time"]),
    ]

    /// The window's start, and the arguments each statement takes for it.
    static let since: Int64 = 1_000_000

    static func arguments(of name: String) -> StatementArguments {
        switch name {
        case "scannersOnline": [since, since]
        case "readingsSince", "positionsSince", "dwellPositions": [since]
        case "recentBatches", "recentSwitches": [Dashboard.recentLimit]
        default: []
        }
    }

    /// Three scanners; batches, positions and switch changes on both sides of ``since`` (some
    /// batches storing nothing, positions sharing a time, one in the future); survey readings at
    /// two of three locations, and locate readings at none.
    static func fill(_ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO scanner (id, name) VALUES ('pi-a', 'pi-a'), ('pi-b', 'pi-b');
            INSERT INTO floor (building, name, level) VALUES ('', 'Ground', 0);
            INSERT INTO room (floor_id, name) VALUES (1, 'Lab');
            INSERT INTO location (room_id, name, x, y) VALUES (1, 'a', 1, 1), (1, 'b', 2, 2), (1, 'c', 3, 3);
            """)
        let scanners = ["default", "pi-a", "pi-b"]
        for index in 0..<60 {
            let scanner = scanners[index % 3]
            try db.execute(sql: """
                INSERT INTO switch_revision (scanner_id, revision, scanning, mode, room_id, location_id, store_data, changed_ms)
                VALUES (?, ?, ?, ?, ?, ?, 1, ?)
                """, arguments: [scanner, index / 3 + 2, index % 2, index % 4 == 0 ? "survey" : "locate", 1, index % 4 == 0 ? 1 : nil, since - 40_000 + Int64(index) * 1_111])
        }
        for index in 0..<150 {
            let survey = index % 5 == 0
            try db.execute(sql: """
                INSERT INTO batch (uuid, scanner_id, revision, received_ms, stored, discarded) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [UUID().uuidString, scanners[index % 3], index % 7 + 1, since - 45_000 + Int64(index) * 1_000, survey ? index % 4 + 1 : 0, index % 3])
            if survey {
                try db.execute(sql: """
                    INSERT INTO measurement (uuid, batch_id, scanner_id, revision, mode, room_id, location_id, kind, time_ms, rssi, scan, address)
                    VALUES (?, ?, ?, 1, 'survey', 1, ?, 'wifi', ?, -60, 1, 42)
                    """, arguments: [UUID().uuidString, db.lastInsertedRowID, scanners[index % 3], index % 2 + 1, since])
            } else if index % 5 == 1 {
                try db.execute(sql: """
                    INSERT INTO measurement (uuid, batch_id, scanner_id, revision, mode, kind, time_ms, rssi, scan, address)
                    VALUES (?, ?, ?, 1, 'locate', 'wifi', ?, -60, 1, 43)
                    """, arguments: [UUID().uuidString, db.lastInsertedRowID, scanners[index % 3], since])
            }
        }
        for index in 0..<300 {
            // Every third position shares its time with the one before: the order's last key decides.
            let time = since - 100_000 + Int64(index - index / 3) * 1_000 + (index == 299 ? 86_400_000 : 0)
            try db.execute(sql: """
                INSERT INTO position (scanner_id, time_ms, building, floor_id, x, y, room_id, accuracy_metres, method)
                VALUES (?, ?, '', 1, ?, ?, ?, 2, 'wifi-knn')
                """, arguments: [scanners[index % 3 == 2 ? 0 : index % 2 + 1], time, Double(index % 7), 1.5, index % 4 == 0 ? nil : 1])
        }
    }

    @Test func theDashboardStatementsAnswerWhatTheShippedOnesAnswered() async throws {
        try await withTemporaryDatabase { database, _ in
            try await database.writer.write { db in try Self.fill(db) }
            try await database.writer.read { db in
                #expect(Set(Self.shippedDashboard.map(\.name)) == Set(Self.dashboard.keys))
                for (name, shipped) in Self.shippedDashboard {
                    let current = try #require(Self.dashboard[name]).sql
                    let arguments = Self.arguments(of: name)
                    let expected = try Row.fetchAll(db, sql: shipped, arguments: arguments)
                    let answered = try Row.fetchAll(db, sql: current, arguments: arguments)
                    #expect(answered.map { Array($0.databaseValues) } == expected.map { Array($0.databaseValues) }, "\(name)")
                    #expect(expected.first.map { $0.databaseValues.first != 0.databaseValue } == true, "\(name): the fill gives it something to count")
                }
            }
        }
    }

    @Test func theDashboardReadsOnlyTheRecentEndOfEachTable() async throws {
        let database = try AppDatabase.inMemory()
        try await database.writer.read { db in
            for (name, statement) in Self.dashboard {
                let plan = try Self.plan(of: statement.sql, arguments: Self.arguments(of: name), in: db)
                for index in statement.indexes {
                    #expect(plan.contains { $0.contains("INDEX \(index) ") || $0.hasSuffix("INDEX \(index)") }, "\(name) reads through \(index): \(plan)")
                }
                #expect(!plan.contains { Self.readsAWholeHistoryTable($0) }, "\(name): \(plan)")
            }
        }
    }

    /// The `detail` column of `EXPLAIN QUERY PLAN`, one entry per step.
    static func plan(of sql: String, arguments: StatementArguments, in db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: arguments).map { $0["detail"] }
    }

    /// A step walking all of `batch`, `position`, `measurement` or `switch_revision` (their own
    /// rows, or an index covering every row) rather than a bounded range or the newest few.
    static func readsAWholeHistoryTable(_ step: String) -> Bool {
        let tables = ["batch", "position", "measurement", "switch_revision"]
        let ordered = ["batch_stored_newest", "switch_revision_changed"]
        return tables.contains { step == "SCAN \($0)" || step.hasPrefix("SCAN \($0) ") }
            && !ordered.contains { step.hasSuffix("INDEX \($0)") }
    }
}
