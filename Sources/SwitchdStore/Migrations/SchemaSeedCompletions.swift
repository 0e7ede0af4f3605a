/// What issue 18 added to the survey, as frozen SQL (see ``SchemaV1``).
enum SchemaSeedCompletions {
    /// Geo-reference control points per floor (plan metres ↔ WGS 84 degrees), in the order given;
    /// they go with their floor. The fitted map is computed from them when read, never stored,
    /// so it cannot disagree with them.
    ///
    /// A scanner's allow-list travels with each switch revision (so a change of it is pushed
    /// like any switch change): JSON arrays of BSSIDs and of SSIDs, NULL when the scanner keeps
    /// everything it hears.
    static let georeferenceAndAllowLists = """
        CREATE TABLE georeference_point (
            floor_id INTEGER NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL CHECK (ordinal >= 0),
            x REAL NOT NULL,
            y REAL NOT NULL,
            latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
            longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
            PRIMARY KEY (floor_id, ordinal)
        );
        ALTER TABLE switch_revision ADD COLUMN allow_bssids TEXT;
        ALTER TABLE switch_revision ADD COLUMN allow_ssids TEXT;
        """
}
