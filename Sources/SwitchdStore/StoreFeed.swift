/// A sequenced feed of the store (measurements, positions): a table whose rows a reader follows
/// by an ever-growing number, as read and kept through the seam (docs/scale-out.md,
/// "Transactions and serialisation").
struct StoreFeed: Sendable {
    /// The feed's name in notifications (`"<name> <sequence>"` on ``AppDatabase/feedChannel``),
    /// in its lock and in `feed_end`.
    let name: String
    let table: String
    /// The column holding the feed's sequence numbers.
    let column: String

    static let measurements = StoreFeed(name: FeedName.measurement.rawValue, table: "measurement", column: "sequence")
    static let positions = StoreFeed(name: FeedName.position.rawValue, table: "position", column: "id")

    /// The lock an insert into the feed holds for the rest of its transaction, so that sequence
    /// numbers are given out and committed in one order across instances, as SQLite's single
    /// writer does: a reader never sees a row commit below a sequence it has passed. Deletions
    /// that keep the feed's end take it too (``keepingEnd(in:_:)``).
    var lock: String { "feed \(name)" }

    /// The highest sequence ever given out, 0 before the first row. On SQLite, what
    /// `sqlite_sequence` keeps, which deletes do not lower. On PostgreSQL, whose identity sequence
    /// is not transactional (it counts numbers given to transactions still running), the highest
    /// in the snapshot: inserts commit in order under ``lock``, so no row can later appear below
    /// it; deleting the newest rows would lower it, so deletions keep the former highest in
    /// `feed_end` (``keepingEnd(in:_:)``) and the end is the greater of the two.
    func end(in sql: any StoreTransaction) throws -> Int64 {
        if sql is SQLiteTransaction {
            return try sql.row("SELECT seq FROM sqlite_sequence WHERE name = ?", [.text(table)])?.int64("seq") ?? 0
        }
        return try sql.row("""
            SELECT GREATEST(
                COALESCE((SELECT MAX(\(column)) FROM \(table)), 0),
                COALESCE((SELECT sequence FROM feed_end WHERE feed = ?), 0)
            ) AS feed_end
            """, [.text(name)])?.int64("feed_end") ?? 0
    }

    /// Runs `delete`, a deletion that may remove the feed's newest rows, so that the feed's end
    /// never goes down. On SQLite `delete` just runs (see ``end(in:)``). On PostgreSQL the feed's
    /// lock is taken (no insert commits meanwhile), and when the deletion lowered the highest
    /// sequence the former one is kept in `feed_end`.
    ///
    /// - Throws: what `delete` throws; the transaction then rolls back with it.
    func keepingEnd<T>(in sql: any StoreTransaction, _ delete: () throws -> T) throws -> T {
        guard sql is PostgresTransaction else { return try delete() }
        try sql.lock(lock)
        let before = try highest(in: sql)
        let result = try delete()
        if let before, try highest(in: sql) != before {
            try sql.execute("""
                INSERT INTO feed_end (feed, sequence) VALUES (?, ?)
                ON CONFLICT (feed) DO UPDATE SET sequence = GREATEST(feed_end.sequence, excluded.sequence)
                """, [.text(name), .integer(before)])
        }
        return result
    }

    private func highest(in sql: any StoreTransaction) throws -> Int64? {
        try sql.row("SELECT MAX(\(column)) AS highest FROM \(table)", [])?.optionalInt64("highest")
    }
}
