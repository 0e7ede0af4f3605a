/// Reference points recorded with a tag held at a known spot, as frozen SQL (see ``SchemaV1``).
enum SchemaTagReferences {
    /// `tag_reference`: one "record this tag here" (`/v1/tags/{id}/references`): the spot, the
    /// tag's power when it was asked (`tx_power`, so a later edit of the tag does not change a
    /// recorded path loss), the windows wanted, and the end of the tag's latest window then
    /// (`after_window_end_ms`: only later windows count). `last_window_end_ms` is set once the
    /// wanted windows are in: the recording is done. `tag_reference_window`: what each placed
    /// scanner reported of the tag in one of those windows, copied from its sighting so that
    /// history retention, which prunes sightings, keeps the map. Deleting the tag, the floor or
    /// a scanner deletes what they recorded.
    static let references = """
        CREATE TABLE tag_reference (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tag_id INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            floor_id INTEGER NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            x REAL NOT NULL,
            y REAL NOT NULL,
            z REAL NOT NULL,
            tx_power INTEGER NOT NULL,
            windows_wanted INTEGER NOT NULL CHECK (windows_wanted >= 1),
            after_window_end_ms INTEGER NOT NULL,
            last_window_end_ms INTEGER,
            created_ms INTEGER NOT NULL
        );
        CREATE INDEX tag_reference_tag ON tag_reference(tag_id);
        CREATE TABLE tag_reference_window (
            reference_id INTEGER NOT NULL REFERENCES tag_reference(id) ON DELETE CASCADE,
            window_end_ms INTEGER NOT NULL,
            scanner_id TEXT NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            median_rssi REAL NOT NULL,
            max_rssi INTEGER NOT NULL,
            PRIMARY KEY (reference_id, window_end_ms, scanner_id)
        );
        CREATE INDEX tag_reference_window_scanner ON tag_reference_window(scanner_id);
        """
}
