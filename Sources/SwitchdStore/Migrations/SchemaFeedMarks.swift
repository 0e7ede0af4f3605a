/// The measurement feed's marks, as frozen SQL (see ``SchemaV1``).
enum SchemaFeedMarks {
    /// `feed_mark`: on PostgreSQL, one row per ingest transaction (old ones pruned), saying
    /// "every reading with a sequence up to `measurement_sequence`, and every batch row with an
    /// ID up to `batch_id`, was given to a transaction whose ID is below `next_xid`"; a reader whose
    /// snapshot has no transaction below `next_xid` still running may read the feed up to there
    /// (docs/scale-out.md, "The measurement feed's horizon"). SQLite commits one writer at a
    /// time, reads its ends from `sqlite_sequence`, and leaves this table empty.
    static let marks = """
        CREATE TABLE feed_mark (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            next_xid INTEGER NOT NULL,
            measurement_sequence INTEGER NOT NULL,
            batch_id INTEGER NOT NULL
        );
        """
}
