import Foundation
import ScanContract

extension AppDatabase {
    /// Opens the PostgreSQL database at `address` and brings its schema up to date
    /// (``PostgresStore/migrate()``). Only the areas moved onto ``StoreTransaction`` run there so
    /// far (docs/scale-out.md, "Phases"); the others throw ``NotYetOnPostgres``.
    ///
    /// - Throws: the driver's error when the server cannot be reached or a migration fails.
    package static func open(postgres address: PostgresAddress, maxConnections: Int = 8) async throws -> AppDatabase {
        let store = PostgresStore(address: address, maxConnections: maxConnections)
        do {
            try await store.migrate()
        } catch {
            try? await store.close()
            throw error
        }
        return AppDatabase(backend: .postgres(store))
    }

    /// Closes a PostgreSQL store's connections and threads; nothing for SQLite, whose
    /// connections close with the last reference.
    package func close() async throws {
        if case .postgres(let store) = backend {
            try await store.close()
        }
    }
}

extension AppDatabase {
    /// Calls `receive` with each new switch revision another instance (or this one) committed,
    /// as `(scanner ID text, revision)`, after `listening` says the listener is registered; see
    /// ``PostgresStore/listen(on:listening:receive:)``. On SQLite, one process is every writer
    /// and its own hub announces its commits: this returns at once.
    ///
    /// - Throws: when the listening connection cannot be made or drops (listen again, then
    ///   resync from the store).
    package func listenForSwitchRevisions(
        listening: @Sendable () async -> Void, receive: @Sendable (_ scannerID: String, _ revision: Int) async -> Void
    ) async throws {
        guard case .postgres(let store) = backend else { return }
        try await store.listen(on: Self.switchChannel, listening: listening) { payload in
            let parts = payload.split(separator: " ")
            guard parts.count == 2, let revision = Int(parts[1]) else { return }
            await receive(String(parts[0]), revision)
        }
    }
}

extension AppDatabase {
    /// Calls `receive` with each new end of the measurement feed another instance (or this one)
    /// committed, after `listening` says the listener is registered (as
    /// ``listenForSwitchRevisions(listening:receive:)``). Returns at once on SQLite.
    ///
    /// - Throws: when the listening connection cannot be made or drops (listen again, then
    ///   resync from ``endOfMeasurementFeed()``).
    package func listenForMeasurementFeed(listening: @Sendable () async -> Void, receive: @Sendable (_ sequence: Int64) async -> Void) async throws {
        try await listenForFeed(Self.measurementFeed, listening: listening, receive: receive)
    }

    /// Calls `receive` with each new end of the presence event feed (tag events included: they
    /// are presence events) committed by any instance, as ``listenForMeasurementFeed(listening:receive:)``.
    ///
    /// - Throws: as ``listenForMeasurementFeed(listening:receive:)``; resync from
    ///   ``endOfPresenceEventFeed()``.
    package func listenForPresenceEventFeed(listening: @Sendable () async -> Void, receive: @Sendable (_ id: Int64) async -> Void) async throws {
        try await listenForFeed(Self.presenceEventFeed, listening: listening, receive: receive)
    }

    /// Calls `receive` with each `"<feed> <sequence>"` announced on ``feedChannel`` for `feed`.
    private func listenForFeed(
        _ feed: String, listening: @Sendable () async -> Void, receive: @Sendable (_ sequence: Int64) async -> Void
    ) async throws {
        guard case .postgres(let store) = backend else { return }
        try await store.listen(on: Self.feedChannel, listening: listening) { payload in
            let parts = payload.split(separator: " ")
            guard parts.count == 2, parts[0] == feed, let sequence = Int64(parts[1]) else { return }
            await receive(sequence)
        }
    }

    /// Every scanner's switch as it is now, for an instance resyncing its switch watermarks
    /// after its listener (re)connected.
    package func currentSwitches() async throws -> [ScanSwitch] {
        try await readStatements { sql in try SwitchRevisionRecord.currentOfEveryScanner(sql) }
    }

    /// Whether the store runs on PostgreSQL (several instances may share it) rather than SQLite.
    package var runsOnPostgres: Bool {
        if case .postgres = backend { return true }
        return false
    }

    /// The PostgreSQL database's size in bytes, as ``sizeInBytes()`` reports it.
    static func sizeInBytes(on store: PostgresStore) async throws -> Int {
        try await store.transaction(readOnly: true) { sql in
            Int(try sql.row("SELECT pg_database_size(current_database()) AS size", [])?.int64("size") ?? 0)
        }
    }
}

extension AppDatabase {
    /// Runs `body` while this instance leads the cluster in `role` (presence derivation, webhook
    /// deliveries: work to do once per cluster): on PostgreSQL, while it holds the session
    /// advisory lock named `role` (``PostgresStore/whileHoldingSessionLock(_:_:)``); on SQLite,
    /// whose one file has one switchd, at once.
    ///
    /// - Returns: false when another instance leads (`body` did not run), true when `body` ran
    ///   and returned.
    /// - Throws: what `body` throws; ``SessionLockLost`` when the leadership went with the
    ///   connection (`body` is cancelled first); the driver's error when the server cannot be
    ///   reached.
    package func whileLeading(_ role: String, _ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        guard case .postgres(let store) = backend else {
            try await body()
            return true
        }
        return try await store.whileHoldingSessionLock("leader \(role)", body)
    }
}

/// A store method called on PostgreSQL that still runs on GRDB only (docs/scale-out.md,
/// "Phases"). switchd on PostgreSQL serves only the routes already moved and answers the others
/// 501 before they reach the store; a request that still meets this (a long-poll asking for the
/// watched list) is answered 501 too.
package struct NotYetOnPostgres: Error, CustomStringConvertible {
    package var description: String { "this store method runs on SQLite only so far (docs/scale-out.md)" }
}
