import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// The schema's history. A migration is never edited once shipped; changes are new migrations.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1-survey") { db in
            // AUTOINCREMENT: a deleted floor's, room's or location's ID is never given to a new one.
            try db.execute(sql: """
                CREATE TABLE floor (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    building TEXT NOT NULL,
                    name TEXT NOT NULL,
                    level INTEGER NOT NULL
                );
                CREATE TABLE room (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    floor_id INTEGER NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
                    name TEXT NOT NULL
                );
                CREATE INDEX room_floor ON room(floor_id);
                CREATE TABLE location (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    room_id INTEGER NOT NULL REFERENCES room(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    x REAL NOT NULL,
                    y REAL NOT NULL
                );
                CREATE INDEX location_room ON location(room_id);
                """)
        }

        migrator.registerMigration("v1-scanners-and-switches") { db in
            // Every revision of every switch is kept, so a late upload is tagged with the place
            // it was scanned at. A deleted room or location leaves the history with NULL there.
            try db.execute(sql: """
                CREATE TABLE scanner (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL
                );
                CREATE TABLE switch_revision (
                    scanner_id TEXT NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
                    revision INTEGER NOT NULL CHECK (revision >= 1),
                    scanning INTEGER NOT NULL,
                    mode TEXT NOT NULL CHECK (mode IN ('survey', 'locate')),
                    room_id INTEGER REFERENCES room(id) ON DELETE SET NULL,
                    location_id INTEGER REFERENCES location(id) ON DELETE SET NULL,
                    store_data INTEGER NOT NULL,
                    stop_after_scans INTEGER,
                    stop_after_seconds REAL,
                    changed_ms INTEGER NOT NULL,
                    scans_completed INTEGER NOT NULL DEFAULT 0,
                    stopped_by TEXT CHECK (stopped_by IN ('turnedOff', 'stopCondition')),
                    PRIMARY KEY (scanner_id, revision)
                );
                CREATE INDEX switch_revision_room ON switch_revision(room_id);
                CREATE INDEX switch_revision_location ON switch_revision(location_id);
                """)
            // The seed's one scanner, which `/scanSwitch/1` talks about.
            try insertScanner(ScanContract.Scanner(id: .default, name: ScannerID.default.rawValue), at: Date(), in: db)
        }

        migrator.registerMigration("v1-measurements") { db in
            // Batches are never deleted, so a replayed batch is recognised after any delete.
            try db.execute(sql: """
                CREATE TABLE batch (
                    id INTEGER PRIMARY KEY,
                    uuid BLOB NOT NULL UNIQUE,
                    scanner_id TEXT NOT NULL REFERENCES scanner(id),
                    revision INTEGER NOT NULL,
                    received_ms INTEGER NOT NULL,
                    stored INTEGER NOT NULL,
                    discarded INTEGER NOT NULL
                )
                """)
            try db.execute(sql: MeasurementTable.createTableSQL)
            for sql in MeasurementTable.createIndexesSQL {
                try db.execute(sql: sql)
            }
        }

        registerPositioningMigrations(in: &migrator)
        registerFloorPlanMigrations(in: &migrator)
        registerTokenMigrations(in: &migrator)
        return migrator
    }
}
