import GRDB

extension AppDatabase {
    /// The bearer tokens. Never edited once shipped, like the others.
    static func registerTokenMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-tokens") { db in
            // Only the SHA-256 of a token is kept. Revoked tokens stay, listed, so an audit sees
            // what was issued; scanner_id is set exactly for scanner tokens.
            try db.execute(sql: """
                CREATE TABLE token (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    role TEXT NOT NULL CHECK (role IN ('admin', 'scanner', 'reader')),
                    scanner_id TEXT CHECK ((role = 'scanner') = (scanner_id IS NOT NULL)),
                    hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
                    created_ms INTEGER NOT NULL,
                    revoked_ms INTEGER
                )
                """)
        }
    }
}
