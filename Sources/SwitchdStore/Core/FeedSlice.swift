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
