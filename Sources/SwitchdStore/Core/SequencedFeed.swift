/// A table read as a feed in order of a sequence column (measurements, positions, tag positions, events): where
/// its end is read and how deletions keep it, on either database (docs/scale-out.md,
/// "Transactions and serialisation").
struct SequencedFeed: Sendable {
    /// The feed's name in `feed_end`, in its lock and in its `floorscan_feed` notifications.
    var name: String
    var table: String
    var sequence: String

    static let measurements = SequencedFeed(name: FeedName.measurement.rawValue, table: "measurement", sequence: "sequence")
    static let positions = SequencedFeed(name: FeedName.position.rawValue, table: "position", sequence: "id")
    static let tagPositions = SequencedFeed(name: FeedName.tagPosition.rawValue, table: "tag_position", sequence: "id")
    /// Presence events, tag events among them.
    static let presenceEvents = SequencedFeed(name: FeedName.event.rawValue, table: "presence_event", sequence: "id")
    /// The MQTT outbox: sent to the broker in ID order and deleted through the last ID sent.
    static let mqttOutbox = SequencedFeed(name: FeedName.mqttOutbox.rawValue, table: "mqtt_outbox", sequence: "id")
    /// Webhook delivery attempts: paged by ID, announced to no other instance.
    static let webhookDeliveries = SequencedFeed(name: "webhook_delivery", table: "webhook_delivery", sequence: "id")

    /// The lock an insert into the feed holds until it commits, so sequence numbers commit in
    /// order and a reader never sees a row commit below a sequence it has passed. Deletions that
    /// keep the end (``keepingEnd(in:_:)``) take it too.
    var lock: String { "feed \(name)" }

    /// The highest sequence a reader may be told, 0 before the first row; it never goes down.
    /// On SQLite, `sqlite_sequence` (the table is AUTOINCREMENT). On PostgreSQL, whose identity
    /// sequence counts numbers given to transactions still running, the highest sequence
    /// committed in the snapshot, or the one `feed_end` kept when the newest rows were deleted.
    func end(in sql: any StoreTransaction) throws -> Int64 {
        guard sql is PostgresTransaction else {
            return try sql.row("SELECT seq FROM sqlite_sequence WHERE name = ?", [.text(table)])?.int64("seq") ?? 0
        }
        return try sql.row("""
            SELECT GREATEST(
                COALESCE((SELECT MAX(\(sequence)) FROM \(table)), 0),
                COALESCE((SELECT sequence FROM feed_end WHERE feed = ?), 0)
            ) AS feed_end
            """, [.text(name)])?.int64("feed_end") ?? 0
    }

    /// Runs `delete`, a deletion that may remove the feed's newest rows, so that its end never
    /// goes down. On SQLite, `sqlite_sequence` keeps the end whatever is deleted: `delete` just
    /// runs. On PostgreSQL the feed's lock is taken (nothing is inserted meanwhile), and when
    /// the deletion lowered the highest sequence the former one is kept in `feed_end`.
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
        try sql.row("SELECT MAX(\(sequence)) AS highest FROM \(table)", [])?.optionalInt64("highest")
    }
}
