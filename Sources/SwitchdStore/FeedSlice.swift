import GRDB

/// Stored rows after a sequence number, and how far the feed had got when they were read.
package struct FeedSlice<Item: Sendable>: Sendable {
    /// Ascending by sequence.
    package var items: [Item]
    /// The highest sequence given out when the slice was read (matching the filter or not).
    /// Every row up to it that matches the filter and is not in `items` came before
    /// `items.first`, or — when `items.count` hit the limit — may come after `items.last`.
    package var endOfFeed: Int64

    package init(items: [Item], endOfFeed: Int64) {
        self.items = items
        self.endOfFeed = endOfFeed
    }
}

/// The highest ID SQLite has given out in an AUTOINCREMENT table (0 before the first row);
/// deletes do not lower it.
enum AutoincrementEnd {
    static func of(_ table: String, in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = ?"), arguments: [table]) ?? 0
    }
}

/// A feed whose end must never go down: its table, the key it is ordered by, and its name in
/// notifications and in `feed_end`.
struct StoreFeed: Sendable {
    var table: String
    var key: String
    var name: String

    /// Held by the transactions that insert into the feed's table, so that keys commit in
    /// order across instances, and by deletions that keep its end.
    var lock: String { "feed \(name)" }

    static let measurement = StoreFeed(table: "measurement", key: "sequence", name: "measurement")
    static let presenceEvent = StoreFeed(table: "presence_event", key: "id", name: "event")
    static let position = StoreFeed(table: "position", key: "id", name: "position")
}

extension AppDatabase {
    /// Runs `delete`, a deletion that may remove the newest rows of `feed`, so that the feed's
    /// end never goes down. On SQLite, `sqlite_sequence` keeps the end whatever is deleted, and
    /// without a feed there is no end to keep: `delete` just runs. On PostgreSQL, whose end is
    /// the highest key stored (``FeedEnd``), the feed's lock is taken (no insert commits
    /// meanwhile), and when the deletion lowered the highest key the former one is kept in
    /// `feed_end`.
    ///
    /// - Throws: what `delete` throws; the transaction then rolls back with it.
    static func keepingFeedEnd(_ feed: StoreFeed?, in sql: any StoreTransaction, _ delete: () throws -> Void) throws {
        guard let feed, sql is PostgresTransaction else { return try delete() }
        try sql.lock(feed.lock)
        let highest = "SELECT MAX(\(feed.key)) AS highest FROM \(feed.table)"
        let before = try sql.row(highest, [])?.optionalInt64("highest")
        try delete()
        if let before, try sql.row(highest, [])?.optionalInt64("highest") != before {
            try sql.execute("""
                INSERT INTO feed_end (feed, sequence) VALUES (?, ?)
                ON CONFLICT (feed) DO UPDATE SET sequence = GREATEST(feed_end.sequence, excluded.sequence)
                """, [.text(feed.name), .integer(before)])
        }
    }
}

/// The end of a feed read through the seam, in the caller's snapshot, on either database.
enum FeedEnd {
    /// The end of the feed of `table` ordered by `key`: SQLite's AUTOINCREMENT counter for the
    /// table (``AutoincrementEnd``); on PostgreSQL, whose identity counts numbers given to
    /// transactions still running, the greater of the highest `key` stored and the end kept in
    /// `feed_end` under `feed` by deletions that lowered it. Inserts into the table take the
    /// feed's lock, so no row can later commit below this end.
    static func of(table: String, key: String, feed: String, in sql: any StoreTransaction) throws -> Int64 {
        if sql is SQLiteTransaction {
            return try sql.row("SELECT seq FROM sqlite_sequence WHERE name = ?", [.text(table)])?.int64("seq") ?? 0
        }
        return try sql.row("""
            SELECT GREATEST(
                COALESCE((SELECT MAX(\(key)) FROM \(table)), 0),
                COALESCE((SELECT sequence FROM feed_end WHERE feed = ?), 0)
            ) AS feed_end
            """, [.text(feed)])?.int64("feed_end") ?? 0
    }
}
