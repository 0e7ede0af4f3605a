/// ``SchemaScannerDelete`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaScannerDelete {
    /// As ``SchemaScannerDelete/scannerDelete``. PostgreSQL drops `batch`'s foreign key to
    /// `scanner` in place (its default name, from ``PostgresSchemaV1/measurements``) where SQLite
    /// copies the table, so the rows, their IDs and the trigger on `batch` stay as they are.
    static let scannerDelete = """
        ALTER TABLE batch DROP CONSTRAINT batch_scanner_id_fkey;
        CREATE TABLE deleted_scanner (
            scanner_id text COLLATE "C" PRIMARY KEY NOT NULL,
            last_revision bigint NOT NULL CHECK (last_revision >= 1),
            deleted_ms bigint NOT NULL
        );
        """
}
