/// The tables of on-device positioning, as frozen SQL (see ``SchemaV1``).
enum SchemaV2 {
    /// Beacons of known position. `metadata`: a JSON object of strings. A beacon goes with its floor.
    static let beacons = """
        CREATE TABLE beacon (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid BLOB NOT NULL,
            major INTEGER NOT NULL CHECK (major BETWEEN 0 AND 65535),
            minor INTEGER NOT NULL CHECK (minor BETWEEN 0 AND 65535),
            floor_id INTEGER NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            x REAL NOT NULL,
            y REAL NOT NULL,
            z REAL NOT NULL,
            measured_power INTEGER NOT NULL,
            metadata TEXT NOT NULL
        );
        CREATE UNIQUE INDEX beacon_identity ON beacon(uuid, major, minor);
        CREATE INDEX beacon_floor ON beacon(floor_id);
        """

    /// Undirected links: one per pair of locations whichever way it was given.
    static let links = """
        CREATE TABLE link (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            from_id INTEGER NOT NULL REFERENCES location(id) ON DELETE CASCADE,
            to_id INTEGER NOT NULL REFERENCES location(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('walk', 'stairs', 'lift')),
            distance_metres REAL NOT NULL CHECK (distance_metres > 0),
            CHECK (from_id <> to_id)
        );
        CREATE UNIQUE INDEX link_pair ON link(min(from_id, to_id), max(from_id, to_id));
        CREATE INDEX link_to ON link(to_id);
        """

    /// Positions scanners computed. AUTOINCREMENT: an ID is never given out twice, so cursors and
    /// Last-Event-ID stay meaningful after deletes. Positions go with their scanner or floor; a
    /// deleted room or location leaves NULL.
    static let positions = """
        CREATE TABLE position (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            scanner_id TEXT NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            time_ms INTEGER NOT NULL,
            building TEXT NOT NULL,
            floor_id INTEGER NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            x REAL NOT NULL,
            y REAL NOT NULL,
            room_id INTEGER REFERENCES room(id) ON DELETE SET NULL,
            nearest_location_id INTEGER REFERENCES location(id) ON DELETE SET NULL,
            accuracy_metres REAL NOT NULL CHECK (accuracy_metres >= 0),
            method TEXT NOT NULL,
            beacons TEXT -- JSON array of BeaconSighting, or NULL when not reported
        );
        CREATE INDEX position_scanner_time ON position(scanner_id, time_ms);
        CREATE INDEX position_floor ON position(floor_id);
        CREATE INDEX position_room ON position(room_id);
        CREATE INDEX position_location ON position(nearest_location_id);
        """

    /// One row counting changes to what the radio map is built from; the map's ETag is
    /// `"<token>-<version>"`. Triggers bump it in the writing transaction, so no write path can
    /// forget to: floors, locations and beacons created, changed (only columns the map shows) or
    /// deleted, cascades included; a room moved to another floor; survey readings stored (counted
    /// per batch, when ingest sets `batch.stored`) or deleted (per reading). `token` is random
    /// per database file, so a version number of another file never matches.
    static let surveyVersion = """
        CREATE TABLE survey_version (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            token TEXT NOT NULL,
            version INTEGER NOT NULL
        );
        INSERT INTO survey_version (id, token, version) VALUES (1, lower(
            hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-' || hex(randomblob(2)) || '-'
            || hex(randomblob(2)) || '-' || hex(randomblob(6))
        ), 1);
        CREATE TRIGGER survey_version_floor_updated AFTER UPDATE OF building, level ON floor
        WHEN OLD.building IS NOT NEW.building OR OLD.level IS NOT NEW.level BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        CREATE TRIGGER survey_version_floor_inserted AFTER INSERT ON floor BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        CREATE TRIGGER survey_version_floor_deleted AFTER DELETE ON floor BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        CREATE TRIGGER survey_version_room_updated AFTER UPDATE OF floor_id ON room
        WHEN OLD.floor_id IS NOT NEW.floor_id BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        CREATE TRIGGER survey_version_location_updated AFTER UPDATE OF room_id, x, y ON location
        WHEN OLD.room_id IS NOT NEW.room_id OR OLD.x IS NOT NEW.x OR OLD.y IS NOT NEW.y BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        CREATE TRIGGER survey_version_location_inserted AFTER INSERT ON location BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        CREATE TRIGGER survey_version_location_deleted AFTER DELETE ON location BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        CREATE TRIGGER survey_version_beacon_updated AFTER UPDATE OF uuid, major, minor, floor_id, x, y, z, measured_power, metadata ON beacon
        WHEN OLD.uuid IS NOT NEW.uuid OR OLD.major IS NOT NEW.major OR OLD.minor IS NOT NEW.minor OR OLD.floor_id IS NOT NEW.floor_id OR OLD.x IS NOT NEW.x OR OLD.y IS NOT NEW.y OR OLD.z IS NOT NEW.z OR OLD.measured_power IS NOT NEW.measured_power OR OLD.metadata IS NOT NEW.metadata BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        CREATE TRIGGER survey_version_beacon_inserted AFTER INSERT ON beacon BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        CREATE TRIGGER survey_version_beacon_deleted AFTER DELETE ON beacon BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        CREATE TRIGGER survey_version_readings_stored AFTER UPDATE OF stored ON batch
        WHEN NEW.stored > OLD.stored AND EXISTS (
            SELECT 1 FROM switch_revision
            WHERE scanner_id = NEW.scanner_id AND revision = NEW.revision AND mode = 'survey'
        )
        BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        CREATE TRIGGER survey_version_reading_deleted AFTER DELETE ON measurement
        WHEN OLD.mode = 'survey' AND OLD.location_id IS NOT NULL
        BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        """
}
