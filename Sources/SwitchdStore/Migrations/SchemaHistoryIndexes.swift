/// Indexes that keep reads over a growing history bounded, as frozen SQL (see ``SchemaV1``).
enum SchemaHistoryIndexes {
    /// The dashboard reads only the recent end of its tables: batches and positions since a
    /// time (`batch_received`, `position_time`), the newest batches that stored readings
    /// (`batch_stored_newest`, only those batches: a locate site stores none, and walking every
    /// batch back to find twenty would read the whole table) and the newest switch changes
    /// (`switch_revision_changed`). These tables grow by one row per batch, position or flip, so
    /// their indexes cost ingest nothing measurable.
    ///
    /// `measurement` gets no index here on purpose: indexes on `address` and the beacon identity
    /// (for the `emitter=` filter of `GET /v1/measurements`) made raw inserts of readings 30 %
    /// slower, and ingest of a thousand scanners' readings is the store's hardest job.
    static let indexes = """
        CREATE INDEX batch_received ON batch(received_ms);
        CREATE INDEX batch_stored_newest ON batch(id) WHERE stored > 0;
        CREATE INDEX position_time ON position(time_ms);
        CREATE INDEX switch_revision_changed ON switch_revision(changed_ms);
        """
}
