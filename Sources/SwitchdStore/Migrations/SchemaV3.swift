/// The tables of the admin page and of bearer tokens, as frozen SQL (see ``SchemaV1``).
enum SchemaV3 {
    /// A floor's plan image and its scale. The scale is all three columns or none; the image
    /// goes with its floor.
    static let floorPlans = """
        ALTER TABLE floor ADD COLUMN metres_per_pixel REAL;
        ALTER TABLE floor ADD COLUMN origin_x REAL;
        ALTER TABLE floor ADD COLUMN origin_y REAL;
        CREATE TABLE floor_plan (
            floor_id INTEGER PRIMARY KEY NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            format TEXT NOT NULL CHECK (format IN ('png', 'jpeg', 'svg')),
            image BLOB NOT NULL,
            updated_ms INTEGER NOT NULL
        );
        """

    /// Bearer tokens. Only the SHA-256 of a token is kept. Revoked tokens stay, listed, so an
    /// audit sees what was issued; `scanner_id` is set exactly for scanner tokens.
    static let tokens = """
        CREATE TABLE token (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('admin', 'scanner', 'reader')),
            scanner_id TEXT CHECK ((role = 'scanner') = (scanner_id IS NOT NULL)),
            hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
            created_ms INTEGER NOT NULL,
            revoked_ms INTEGER
        )
        """
}
