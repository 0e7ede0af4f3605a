import Foundation
import ScanContract

extension AppDatabase {
    /// Opens the PostgreSQL database at `address` and brings its schema up to date
    /// (``PostgresStore/migrate()``). Only the areas moved onto ``StoreTransaction`` run there so
    /// far (docs/scale-out.md, "Phases"); the others throw ``NotYetOnPostgres``.
    ///
    /// Refuses a server that would acknowledge a commit before it is on disk (``NotDurable``):
    /// switchd answers a write only after `COMMIT`, and scanners delete their spooled copy on
    /// that answer, as `PRAGMA synchronous = FULL` promises on SQLite.
    ///
    /// - Throws: ``NotDurable`` when the server runs with `fsync` or `synchronous_commit` off
    ///   (for switchd's role and database too: `ALTER DATABASE … SET` counts); the driver's error
    ///   when the server cannot be reached or a migration fails.
    package static func open(postgres address: PostgresAddress, maxConnections: Int = 8) async throws -> AppDatabase {
        let store = PostgresStore(address: address, maxConnections: maxConnections)
        do {
            try await checkDurable(store)
            try await store.migrate()
        } catch {
            try? await store.close()
            throw error
        }
        return AppDatabase(backend: .postgres(store))
    }

    /// The server's settings a returned `COMMIT` depends on, as a session of switchd's sees them.
    private static func checkDurable(_ store: PostgresStore) async throws {
        let (fsync, synchronousCommit) = try await store.transaction(readOnly: true) { sql in
            let row = try sql.row("SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS synchronous_commit", [])
            return (try row?.string("fsync") ?? "", try row?.string("synchronous_commit") ?? "")
        }
        if fsync != "on" { throw NotDurable(setting: "fsync", value: fsync) }
        if synchronousCommit == "off" { throw NotDurable(setting: "synchronous_commit", value: synchronousCommit) }
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
    /// as `(scanner ID text, revision)`, and `retired` with each scanner deleted
    /// (``deleteScanner(_:at:mqtt:)`` announces `"<scanner ID> retired"`), after `listening`
    /// says the listener is registered; see ``PostgresStore/listen(on:listening:receive:)``. On
    /// SQLite, one process is every writer and its own hub announces its commits: this returns
    /// at once.
    ///
    /// - Throws: when the listening connection cannot be made or drops (listen again, then
    ///   resync from the store).
    package func listenForSwitchRevisions(
        listening: @Sendable () async -> Void, retired: @Sendable (_ scannerID: String) async -> Void = { _ in },
        receive: @Sendable (_ scannerID: String, _ revision: Int) async -> Void
    ) async throws {
        guard case .postgres(let store) = backend else { return }
        try await store.listen(on: Self.switchChannel, listening: listening) { payload in
            let parts = payload.split(separator: " ")
            guard parts.count == 2 else { return }
            if parts[1] == Self.retiredScanner {
                await retired(String(parts[0]))
            } else if let revision = Int(parts[1]) {
                await receive(String(parts[0]), revision)
            }
        }
    }

    /// What ``switchChannel`` carries after a scanner's ID when the scanner was deleted.
    static let retiredScanner = "retired"
}

extension AppDatabase {
    /// Calls `receive` with each new end of a sequenced feed (readings, positions, tag positions,
    /// presence events) another instance (or this one) committed, after `listening` says the listener is
    /// registered (as ``listenForSwitchRevisions(listening:receive:)``); one connection listens
    /// for every feed. Returns at once on SQLite.
    ///
    /// - Throws: when the listening connection cannot be made or drops (listen again, then
    ///   resync from ``endOfMeasurementFeed()``, ``endOfPositionFeed()``,
    ///   ``endOfTagPositionFeed()`` and ``endOfPresenceEventFeed()``).
    package func listenForFeeds(
        listening: @Sendable () async -> Void, receive: @Sendable (_ feed: FeedName, _ sequence: Int64) async -> Void
    ) async throws {
        guard case .postgres(let store) = backend else { return }
        try await store.listen(on: Self.feedChannel, listening: listening) { payload in
            let parts = payload.split(separator: " ")
            guard parts.count == 2, let feed = FeedName(rawValue: String(parts[0])), let sequence = Int64(parts[1]) else { return }
            await receive(feed, sequence)
        }
    }

    /// ``listenForFeeds(listening:receive:)``, the measurement feed's ends alone.
    package func listenForMeasurementFeed(listening: @Sendable () async -> Void, receive: @Sendable (_ sequence: Int64) async -> Void) async throws {
        try await listenForFeeds(listening: listening) { feed, sequence in
            if feed == .measurement { await receive(sequence) }
        }
    }

    /// Calls `changed` for each change of what listening scanners watch committed by another
    /// instance (or this one), after `listening` says the listener is registered (as
    /// ``listenForSwitchRevisions(listening:receive:)``). Returns at once on SQLite.
    ///
    /// - Throws: when the listening connection cannot be made or drops (listen again, then
    ///   wake every watched-list wait once, since a change may have been missed).
    package func listenForWatchedListChanges(listening: @Sendable () async -> Void, changed: @Sendable () async -> Void) async throws {
        guard case .postgres(let store) = backend else { return }
        try await store.listen(on: Self.watchedChannel, listening: listening) { _ in await changed() }
    }

    /// Calls `changed` for each change of rooms' outlines committed by another instance (or this
    /// one), after `listening` says the listener is registered (as
    /// ``listenForSwitchRevisions(listening:receive:)``). Returns at once on SQLite.
    ///
    /// - Throws: when the listening connection cannot be made or drops (listen again, then empty
    ///   the outline cache once, since a change may have been missed).
    package func listenForOutlineChanges(listening: @Sendable () async -> Void, changed: @Sendable () async -> Void) async throws {
        guard case .postgres(let store) = backend else { return }
        try await store.listen(on: Self.outlinesChannel, listening: listening) { _ in await changed() }
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

/// The sequenced feeds announced on ``AppDatabase/feedChannel`` as `"<feed> <sequence>"`.
package enum FeedName: String, Sendable {
    case measurement
    case position
    case tagPosition = "tag_position"
    case event
    /// A message put in the MQTT outbox (its ID; ``AppDatabase/insert(_:at:in:)``).
    case mqttOutbox = "mqtt_outbox"
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

/// The PostgreSQL server would acknowledge commits that a power cut can lose.
package struct NotDurable: Error, CustomStringConvertible {
    package var setting: String
    package var value: String

    package var description: String {
        "the PostgreSQL server runs with \(setting) = \(value): a commit it acknowledges may be lost in a crash, and scanners delete what switchd acknowledged; set \(setting) = on for switchd's database (docs/scale-out.md)"
    }
}

/// A store method called on PostgreSQL that still runs on GRDB only (docs/scale-out.md,
/// "Phases"). switchd on PostgreSQL serves only the routes already moved and answers the others
/// 501 before they reach the store; a request that still meets this is answered 501 too.
package struct NotYetOnPostgres: Error, CustomStringConvertible {
    package var description: String { "this store method runs on SQLite only so far (docs/scale-out.md)" }
}
