/// The tables of tag tracking from fixed scanners, as frozen SQL (see ``SchemaV1``).
enum SchemaTags {
    /// Tags, fixed scanners' placements, sightings, tag positions and tag events.
    ///
    /// `tag.identity` is ``ScanContract/TagIdentity/key`` (one text per identity, unique);
    /// `missing_heard` is set once a missing tag's sighting raised its event and cleared when
    /// the tag is marked missing again. A sighting is of exactly one tag or one registered beacon
    /// (beacon sightings calibrate the scanners). AUTOINCREMENT everywhere a feed pages by ID.
    static let tags = """
        CREATE TABLE tag (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            identity TEXT NOT NULL UNIQUE,
            tx_power INTEGER NOT NULL,
            missing INTEGER NOT NULL,
            missing_heard INTEGER NOT NULL DEFAULT 0,
            height REAL NOT NULL,
            metadata TEXT NOT NULL
        );
        CREATE TABLE scanner_placement (
            scanner_id TEXT PRIMARY KEY NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            floor_id INTEGER NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            x REAL NOT NULL,
            y REAL NOT NULL,
            height REAL NOT NULL,
            path_loss_exponent REAL NOT NULL,
            receive_offset_override REAL,
            estimated_receive_offset REAL,
            calibration_samples INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX scanner_placement_floor ON scanner_placement(floor_id);
        CREATE TABLE sighting (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            scanner_id TEXT NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            tag_id INTEGER REFERENCES tag(id) ON DELETE CASCADE,
            beacon_id INTEGER REFERENCES beacon(id) ON DELETE CASCADE,
            window_start_ms INTEGER NOT NULL,
            window_end_ms INTEGER NOT NULL,
            count INTEGER NOT NULL CHECK (count >= 1),
            median_rssi REAL NOT NULL,
            max_rssi INTEGER NOT NULL,
            CHECK ((tag_id IS NULL) <> (beacon_id IS NULL))
        );
        CREATE INDEX sighting_tag_time ON sighting(tag_id, window_end_ms);
        CREATE INDEX sighting_beacon ON sighting(beacon_id, scanner_id);
        CREATE INDEX sighting_scanner ON sighting(scanner_id);
        CREATE TABLE tag_position (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tag_id INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            time_ms INTEGER NOT NULL,
            floor_id INTEGER NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            x REAL NOT NULL,
            y REAL NOT NULL,
            room_id INTEGER REFERENCES room(id) ON DELETE SET NULL,
            accuracy_metres REAL NOT NULL CHECK (accuracy_metres >= 0),
            method TEXT NOT NULL,
            scanners_heard INTEGER NOT NULL
        );
        CREATE INDEX tag_position_tag ON tag_position(tag_id, id);
        CREATE INDEX tag_position_floor ON tag_position(floor_id);
        CREATE INDEX tag_position_room ON tag_position(room_id);
        CREATE TABLE tag_event (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tag_id INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('missingTagHeard')),
            time_ms INTEGER NOT NULL,
            scanner_id TEXT NOT NULL REFERENCES scanner(id) ON DELETE CASCADE
        );
        CREATE INDEX tag_event_tag ON tag_event(tag_id, id);
        CREATE INDEX tag_event_scanner ON tag_event(scanner_id);
        """
}
