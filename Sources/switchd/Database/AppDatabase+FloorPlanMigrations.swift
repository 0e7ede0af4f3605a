import GRDB

extension AppDatabase {
    /// The tables of the admin page: a floor's plan image and its scale. Never edited once
    /// shipped, like the others.
    static func registerFloorPlanMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-floor-plans") { db in
            // The scale is all three columns or none; the image goes with its floor.
            try db.execute(sql: """
                ALTER TABLE floor ADD COLUMN metres_per_pixel REAL;
                ALTER TABLE floor ADD COLUMN origin_x REAL;
                ALTER TABLE floor ADD COLUMN origin_y REAL;
                CREATE TABLE floor_plan (
                    floor_id INTEGER PRIMARY KEY NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
                    format TEXT NOT NULL CHECK (format IN ('png', 'jpeg', 'svg')),
                    image BLOB NOT NULL,
                    updated_ms INTEGER NOT NULL
                );
                """)
        }
    }
}
