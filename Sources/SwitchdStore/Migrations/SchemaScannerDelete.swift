/// What deleting a scanner needs, as frozen SQL (see ``SchemaV1``).
enum SchemaScannerDelete {
    /// `batch` rebuilt with `scanner_id` as plain text, like `measurement.scanner_id` already is:
    /// the shipped table referenced `scanner(id)` without a cascade, so no scanner that ever
    /// uploaded could be deleted. Batches and their readings are the radio map's raw material and
    /// outlive their scanner; a batch is still never deleted, so a replayed one is recognised
    /// after any delete. SQLite cannot drop a foreign key in place, so the table is copied (row
    /// IDs kept, so `measurement.batch_id` still names its batch) and the trigger on it made
    /// again; the migrator runs this with foreign keys off and checks them afterwards.
    ///
    /// `deleted_scanner`: per scanner ID ever deleted, the last switch revision it had and when
    /// it went. A scanner registered again under that ID numbers its revisions on from there, so
    /// a revision number kept in old batches or in a Pi's spool never names a new switch.
    static let scannerDelete = """
        CREATE TABLE batch_new (
            id INTEGER PRIMARY KEY,
            uuid BLOB NOT NULL UNIQUE,
            scanner_id TEXT NOT NULL,
            revision INTEGER NOT NULL,
            received_ms INTEGER NOT NULL,
            stored INTEGER NOT NULL,
            discarded INTEGER NOT NULL
        );
        INSERT INTO batch_new (id, uuid, scanner_id, revision, received_ms, stored, discarded)
        SELECT id, uuid, scanner_id, revision, received_ms, stored, discarded FROM batch;
        DROP TABLE batch;
        ALTER TABLE batch_new RENAME TO batch;
        CREATE TRIGGER survey_version_readings_stored AFTER UPDATE OF stored ON batch
        WHEN NEW.stored > OLD.stored AND EXISTS (
            SELECT 1 FROM switch_revision
            WHERE scanner_id = NEW.scanner_id AND revision = NEW.revision AND mode = 'survey'
        )
        BEGIN UPDATE survey_version SET version = version + 1 WHERE id = 1; END;
        CREATE TABLE deleted_scanner (
            scanner_id TEXT PRIMARY KEY NOT NULL,
            last_revision INTEGER NOT NULL CHECK (last_revision >= 1),
            deleted_ms INTEGER NOT NULL
        );
        """
}
