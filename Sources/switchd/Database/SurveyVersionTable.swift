/// One row counting changes to what the radio map is built from; the map's ETag is
/// `"<token>-<version>"`. SQLite triggers bump it in the writing transaction, so no write path
/// can forget to: floors, locations and beacons created, changed or deleted (cascades included),
/// survey readings stored or deleted (a room clear, a location's cascade). Nothing else bumps it.
///
/// `token` is random per database file, so a version number of another file never matches.
enum SurveyVersionTable {
    static let createSQL = """
        CREATE TABLE survey_version (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            token TEXT NOT NULL,
            version INTEGER NOT NULL
        );
        INSERT INTO survey_version (id, token, version) VALUES (1, ?, 1);
        """

    static let bumpSQL = "UPDATE survey_version SET version = version + 1 WHERE id = 1;"

    /// Survey readings are counted per batch, not per reading, to keep ingest fast: ingest sets
    /// `batch.stored` after inserting a batch's readings, in the same transaction, and a batch of
    /// a survey revision stores survey readings. Deletes are counted per reading.
    static let triggerSQL: [String] = {
        var statements: [String] = []
        // An update counts only when it changes a column the map shows: a room moved to another
        // floor moves its locations.
        let watched: [(table: String, columns: [String])] = [
            ("floor", ["building", "level"]),
            ("room", ["floor_id"]),
            ("location", ["room_id", "x", "y"]),
            ("beacon", ["uuid", "major", "minor", "floor_id", "x", "y", "z", "measured_power", "metadata"]),
        ]
        for (table, columns) in watched {
            let changed = columns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")
            statements.append("""
                CREATE TRIGGER survey_version_\(table)_updated AFTER UPDATE OF \(columns.joined(separator: ", ")) ON \(table)
                WHEN \(changed) BEGIN \(bumpSQL) END
                """)
            // Rooms without locations are not in the map; their locations' deletes count.
            guard table != "room" else { continue }
            for (event, name) in [("INSERT", "inserted"), ("DELETE", "deleted")] {
                statements.append("CREATE TRIGGER survey_version_\(table)_\(name) AFTER \(event) ON \(table) BEGIN \(bumpSQL) END")
            }
        }
        statements.append("""
            CREATE TRIGGER survey_version_readings_stored AFTER UPDATE OF stored ON batch
            WHEN NEW.stored > OLD.stored AND EXISTS (
                SELECT 1 FROM switch_revision
                WHERE scanner_id = NEW.scanner_id AND revision = NEW.revision AND mode = 'survey'
            )
            BEGIN \(bumpSQL) END
            """)
        statements.append("""
            CREATE TRIGGER survey_version_reading_deleted AFTER DELETE ON measurement
            WHEN OLD.mode = 'survey' AND OLD.location_id IS NOT NULL
            BEGIN \(bumpSQL) END
            """)
        return statements
    }()
}
