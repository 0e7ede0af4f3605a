/// The `visitor` token role, as frozen SQL (see ``SchemaV1``).
enum SchemaVisitorTokens {
    /// `token.role` may be `visitor` as well (a visitor link: positions, the plan, rooms, routes
    /// and items; docs/auth.md). SQLite cannot change a CHECK in place, so the table is copied
    /// as in ``SchemaTagsInPresence`` (IDs, hashes, revocations and the AUTOINCREMENT sequence
    /// kept, so every token issued goes on working and no ID is reused).
    static let visitorRole = """
        CREATE TABLE token_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('admin', 'scanner', 'reader', 'visitor')),
            scanner_id TEXT CHECK ((role = 'scanner') = (scanner_id IS NOT NULL)),
            hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
            created_ms INTEGER NOT NULL,
            revoked_ms INTEGER
        );
        INSERT INTO token_new (id, name, role, scanner_id, hash, created_ms, revoked_ms)
        SELECT id, name, role, scanner_id, hash, created_ms, revoked_ms FROM token;
        DELETE FROM sqlite_sequence WHERE name = 'token_new';
        INSERT INTO sqlite_sequence (name, seq) SELECT 'token_new', seq FROM sqlite_sequence WHERE name = 'token';
        DROP TABLE token;
        ALTER TABLE token_new RENAME TO token;
        """
}
