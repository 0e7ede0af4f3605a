/// Scanner settings from switchd, as frozen SQL (see ``SchemaV1``).
enum SchemaScannerSettings {
    /// `scanner_settings`: per scope (a scanner's ID, or `*` for the fleet's defaults) the
    /// settings JSON as `PATCH /v1/scanners/{id}` stored it and the revision of its last change,
    /// drawn from one sequence for every scope (the largest stored plus one), so a scanner's
    /// settings revision, the larger of its own and the fleet's, only ever grows. No foreign key:
    /// `*` is no scanner; deleting a scanner deletes its row.
    ///
    /// `scanner_health` gains what the scanner last reported of its settings: the revision it runs
    /// with, the settings it could not apply (JSON object, key to reason) and those in effect (JSON).
    static let settings = """
        CREATE TABLE scanner_settings (
            scope TEXT PRIMARY KEY NOT NULL,
            settings TEXT NOT NULL,
            revision INTEGER NOT NULL
        );
        ALTER TABLE scanner_health ADD COLUMN applied_settings_revision INTEGER;
        ALTER TABLE scanner_health ADD COLUMN unapplied_settings TEXT;
        ALTER TABLE scanner_health ADD COLUMN applied_settings TEXT;
        """
}
