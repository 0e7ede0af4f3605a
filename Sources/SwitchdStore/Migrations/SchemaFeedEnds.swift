/// Where a feed's end is kept when its newest rows are deleted, as frozen SQL (see ``SchemaV1``).
enum SchemaFeedEnds {
    /// `feed_end`: per feed (`measurement`), the highest sequence it ever committed, written by
    /// the deletions that can remove a feed's newest rows (a floor, room or location deleted, a
    /// room cleared) so a reader is never told an end below one it was told before. SQLite keeps
    /// that end in `sqlite_sequence` already and leaves this table empty; PostgreSQL's identity
    /// counts numbers given to transactions still running and cannot serve (docs/scale-out.md).
    static let feedEnds = """
        CREATE TABLE feed_end (
            feed TEXT PRIMARY KEY NOT NULL,
            sequence INTEGER NOT NULL
        );
        """
}
