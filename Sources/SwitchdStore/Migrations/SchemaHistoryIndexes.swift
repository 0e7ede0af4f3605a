/// Indexes that keep reads over a growing history bounded, as frozen SQL (see ``SchemaV1``).
enum SchemaHistoryIndexes {
    /// The dashboard reads only the recent end of its tables: batches and positions since a
    /// time (`batch_received`, `position_time`), the newest batches that stored readings
    /// (`batch_stored_newest`, only those batches: a locate site stores none, and walking every
    /// batch back to find twenty would read the whole table) and the newest switch changes
    /// (`switch_revision_changed`). The `emitter=` filter of `GET /v1/measurements` finds an
    /// access point or device by its address (`measurement_address`) and a beacon by its
    /// identity (`measurement_beacon`, iBeacon readings only); each entry also carries the
    /// sequence, so the feed's order comes from the index.
    ///
    /// Each index costs some ingest speed: the two on `measurement` are the only ones a reading
    /// pays for, and the beacon one only when the reading is an iBeacon.
    static let indexes = """
        CREATE INDEX batch_received ON batch(received_ms);
        CREATE INDEX batch_stored_newest ON batch(id) WHERE stored > 0;
        CREATE INDEX position_time ON position(time_ms);
        CREATE INDEX switch_revision_changed ON switch_revision(changed_ms);
        CREATE INDEX measurement_address ON measurement(address);
        CREATE INDEX measurement_beacon ON measurement(beacon_uuid, major, minor) WHERE beacon_uuid IS NOT NULL;
        """
}
