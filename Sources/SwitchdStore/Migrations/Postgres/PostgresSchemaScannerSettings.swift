/// ``SchemaScannerSettings`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaScannerSettings {
    static let settings = """
        CREATE TABLE scanner_settings (
            scope text COLLATE "C" PRIMARY KEY NOT NULL,
            settings text COLLATE "C" NOT NULL,
            revision bigint NOT NULL
        );
        ALTER TABLE scanner_health ADD COLUMN applied_settings_revision bigint;
        ALTER TABLE scanner_health ADD COLUMN unapplied_settings text COLLATE "C";
        ALTER TABLE scanner_health ADD COLUMN applied_settings text COLLATE "C";
        """
}
