import Foundation
import GRDB

extension AppDatabase {
    /// The tables of on-device positioning: beacons, links, positions, and the survey version
    /// that the radio map's ETag follows. Never edited once shipped, like the others.
    static func registerPositioningMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-beacons") { db in
            // metadata: a JSON object of strings. A beacon goes with its floor.
            try db.execute(sql: """
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
                """)
        }

        migrator.registerMigration("v2-links") { db in
            // Undirected: one link per pair of locations whichever way it was given.
            try db.execute(sql: """
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
                """)
        }

        migrator.registerMigration("v2-positions") { db in
            // AUTOINCREMENT: an ID is never given out twice, so cursors and Last-Event-ID stay
            // meaningful after deletes. Positions go with their scanner or floor; a deleted room
            // or location leaves NULL.
            try db.execute(sql: """
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
                """)
        }

        migrator.registerMigration("v2-survey-version") { db in
            try db.execute(sql: SurveyVersionTable.createSQL, arguments: [UUID().uuidString.lowercased()])
            for sql in SurveyVersionTable.triggerSQL {
                try db.execute(sql: sql)
            }
        }
    }
}
