/// One-time enrolment codes for new scanners, as frozen SQL (see ``SchemaV1``).
enum SchemaEnrolmentCodes {
    /// A code is stored as the SHA-256 of its normalised text, never the text; it names the
    /// scanner it enrols, ends at `expires_ms`, and once used keeps when and the token it issued.
    static let codes = """
        CREATE TABLE enrolment_code (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
            scanner_id TEXT NOT NULL,
            name TEXT,
            created_ms INTEGER NOT NULL,
            expires_ms INTEGER NOT NULL,
            used_ms INTEGER,
            token_id INTEGER REFERENCES token(id)
        );
        """
}
