extension AppDatabase {
    /// Runs `body` in one write transaction through ``StoreTransaction``, on whichever database
    /// the store runs on: GRDB's on SQLite (see ``write(_:)``), ``PostgresStore``'s on PostgreSQL.
    ///
    /// - Throws: what `body` throws, the transaction rolled back; ``StoreError/storageFull`` for
    ///   a full disk; the driver's error when the database cannot be reached.
    func writeStatements<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        switch backend {
        case .sqlite: try await write { db in try body(SQLiteTransaction(db: db)) }
        case .postgres(let store): try await store.transaction(readOnly: false, body)
        }
    }

    /// Runs `body` in one read-only snapshot through ``StoreTransaction`` (see
    /// ``writeStatements(_:)``).
    func readStatements<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        switch backend {
        case .sqlite: try await read { db in try body(SQLiteTransaction(db: db)) }
        case .postgres(let store): try await store.transaction(readOnly: true, body)
        }
    }
}
