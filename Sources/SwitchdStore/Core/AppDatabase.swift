import Foundation
import GRDB

/// switchd's storage: one SQLite database (or, for the areas moved so far, a PostgreSQL one:
/// docs/scale-out.md), reached through named read and write methods that take and return the
/// v1 contract's values (`Floor`, `ScanSwitch`, `StoredMeasurement`, …).
///
/// The schema enforces the rules (not null, foreign keys with cascades, unique batch and
/// measurement IDs); the methods add what SQL cannot say. How each table's row maps to a value
/// is written once, in its record (`Records/`). Every write method is one transaction: when it
/// throws, nothing it did is kept. A full disk is ``StoreError/storageFull``.
package struct AppDatabase: Sendable {
    /// Which database the store runs on.
    enum Backend: Sendable {
        case sqlite(any DatabaseWriter)
        case postgres(PostgresStore)
    }

    let backend: Backend

    /// The rooms' outlines per floor, read once for the positions placed in them (``RoomOutlineCache``).
    package let outlineCache = RoomOutlineCache()

    /// The SQLite database, for tests that read rows themselves.
    ///
    /// - Precondition: the store runs on SQLite (every store switchd opens does so far).
    package var writer: any DatabaseWriter {
        guard case .sqlite(let writer) = backend else { preconditionFailure("a PostgreSQL store has no GRDB writer") }
        return writer
    }

    /// Checkpoints the WAL off the commit path, when the database was opened with one
    /// (``open(stateDirectory:checkpointsInBackground:)``); its `run` is the caller's to start.
    /// Always nil on PostgreSQL, which has no WAL of the store's to checkpoint.
    package let checkpointer: WALCheckpointer?

    /// Opens `writer` and brings its schema up to date.
    ///
    /// - Throws: ``NewerSchemaError``, changing nothing, when a newer switchd migrated the
    ///   database; else when a migration fails, the database then left as it was before that migration.
    package init(_ writer: any DatabaseWriter, checkpointer: WALCheckpointer? = nil) throws {
        backend = .sqlite(writer)
        self.checkpointer = checkpointer
        let migrator = Self.migrator
        try NewerSchemaError.check(applied: writer.read { db in try migrator.appliedIdentifiers(db) }, known: migrator.migrations)
        try migrator.migrate(writer)
    }

    init(backend: Backend) {
        self.backend = backend
        checkpointer = nil
    }

    /// An empty database in memory, for tests.
    package static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: configuration()))
    }

    /// Foreign keys on (GRDB's default, stated here because the cascades depend on it) and
    /// `synchronous = FULL`, so an acknowledged batch survives a power cut: scanners delete their
    /// spooled copy once they have the receipt. A write waits up to 5 s for another process's
    /// (`switchd token` while switchd runs) instead of failing at once.
    /// With a `checkpointer`, every connection reports its commits to it instead of
    /// checkpointing the WAL itself (``WALCheckpointer``). When the WAL starts over after a
    /// checkpoint, SQLite cuts its file back to ``walSizeLimit`` bytes: a burst (a thousand
    /// scanners reconnecting, an export holding a snapshot) then leaves no WAL file of hundreds of
    /// megabytes on the Pi's card until switchd stops.
    package static func configuration(checkpointer: WALCheckpointer? = nil) -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA journal_size_limit = \(walSizeLimit)")
            checkpointer?.watch(db)
        }
        return configuration
    }

    /// The size, in bytes, a WAL file is cut back to when it starts over: four times what
    /// ``WALCheckpointer/defaultThreshold`` pages of 4 KiB take, so that a steady load reuses the
    /// file without growing it again.
    package static let walSizeLimit = 16 << 20

    /// Whether the database answers a query.
    package func ping() async throws {
        _ = try await readStatements { sql in try sql.row("SELECT 1 AS one", []) }
    }

    /// The database's size in bytes (pages in use times page size; a WAL file is not included;
    /// on PostgreSQL, `pg_database_size`).
    package func sizeInBytes() async throws -> Int {
        if case .postgres(let store) = backend { return try await Self.sizeInBytes(on: store) }
        return try await read { db in
            try Int.fetchOne(db, sql: "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()") ?? 0
        }
    }

    /// Runs `body` in one write transaction.
    ///
    /// - Throws: what `body` throws, or ``StoreError/storageFull`` when SQLite finds the disk (or
    ///   the database's page limit) full; the transaction is rolled back either way.
    ///   ``NotYetOnPostgres`` on PostgreSQL, where only ``writeStatements(_:)`` runs.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard case .sqlite(let writer) = backend else { throw NotYetOnPostgres() }
        do {
            return try await writer.write(body)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw StoreError.storageFull
        }
    }

    /// Runs `body` in one read-only snapshot.
    ///
    /// - Throws: what `body` throws, or ``StoreError/storageFull`` when SQLite has no room for
    ///   the temporary files a query needs. ``NotYetOnPostgres`` on PostgreSQL, where only
    ///   ``readStatements(_:)`` runs.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard case .sqlite(let writer) = backend else { throw NotYetOnPostgres() }
        do {
            return try await writer.read(body)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw StoreError.storageFull
        }
    }
}
