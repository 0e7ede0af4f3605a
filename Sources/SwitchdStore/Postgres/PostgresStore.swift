import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// switchd's connections to one PostgreSQL database: up to ``maxConnections`` of them, each
/// used by one transaction at a time on one of the store's own threads (docs/scale-out.md,
/// "One body of store logic, two drivers").
///
/// A transaction's body is the same synchronous code the SQLite driver runs; it is retried, from
/// the start, when PostgreSQL reports a serialisation failure or deadlock (SQLSTATE 40001,
/// 40P01), at most ``maxAttempts`` times.
package final class PostgresStore: Sendable {
    package let address: PostgresAddress
    package let maxConnections: Int
    private let threads: NIOThreadPool
    private let idle = Mutex<[PostgresConnection]>([])
    private let nextID = Atomic<Int>(0)
    private let logger: Logger

    static let maxAttempts = 5
    /// The advisory lock key held while migrating, so that instances started together
    /// migrate one after another (the text "floorscan" as a number).
    static let migrationLock: Int64 = 0x666c_6f6f_7273_6361

    /// Prepares the store's threads; connections are made when first needed.
    package init(address: PostgresAddress, maxConnections: Int = 8, logger: Logger = Logger(label: "switchd.postgres")) {
        self.address = address
        self.maxConnections = maxConnections
        self.logger = logger
        threads = NIOThreadPool(numberOfThreads: maxConnections)
        threads.start()
    }

    /// Closes every idle connection and stops the threads.
    package func close() async throws {
        let connections = idle.withLock { idle in
            defer { idle.removeAll() }
            return idle
        }
        for connection in connections {
            try? await connection.close()
        }
        try await threads.shutdownGracefully()
    }

    /// Runs `body` in one transaction: read-only at REPEATABLE READ (one snapshot), or a write
    /// at READ COMMITTED (docs/scale-out.md, "Transactions and serialisation").
    ///
    /// - Throws: what `body` throws, after rolling back; the driver's error when the server
    ///   cannot be reached or a statement fails; ``StoreError/storageFull`` for a full disk.
    package func transaction<T: Sendable>(readOnly: Bool, _ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await threads.runIfActive { [self] in
            var attempt = 1
            while true {
                do {
                    return try withConnection { connection in
                        try runTransaction(on: connection, readOnly: readOnly, body)
                    }
                } catch let error as PSQLError where attempt < Self.maxAttempts && Self.isRetryable(error) {
                    attempt += 1
                }
            }
        }
    }

    /// Brings the schema up to date: applies, in order, every migration of
    /// ``PostgresMigrations/history`` not yet recorded, each in its own transaction with its
    /// record, while holding ``migrationLock``.
    ///
    /// - Throws: ``NewerSchemaError``, applying nothing, when a newer switchd migrated the database;
    ///   the server's error for a migration that fails, that migration then rolled back and the
    ///   ones before it kept.
    package func migrate() async throws {
        try await threads.runIfActive { [self] in
            try withConnection { connection in
                _ = try connection.simpleQuery("SELECT pg_advisory_lock(\(Self.migrationLock))").wait()
                defer { _ = try? connection.simpleQuery("SELECT pg_advisory_unlock(\(Self.migrationLock))").wait() }
                _ = try connection.simpleQuery(PostgresMigrations.createRecordTable).wait()
                let applied = try Set(connection.simpleQuery("SELECT identifier FROM \(PostgresMigrations.recordTable)").wait()
                    .map { try $0.decode(String.self) })
                try NewerSchemaError.check(applied: applied, known: PostgresMigrations.history.map(\.identifier))
                for (identifier, sql) in PostgresMigrations.history where !applied.contains(identifier) {
                    do {
                        _ = try connection.simpleQuery("BEGIN").wait()
                        for statement in PostgresMigrations.statements(sql) {
                            _ = try connection.simpleQuery(statement).wait()
                        }
                        _ = try connection.simpleQuery(
                            "INSERT INTO \(PostgresMigrations.recordTable) (identifier) VALUES ('\(identifier)')"
                        ).wait()
                        _ = try connection.simpleQuery("COMMIT").wait()
                    } catch {
                        _ = try? connection.simpleQuery("ROLLBACK").wait()
                        throw error
                    }
                }
            }
        }
    }

    private func runTransaction<T>(on connection: PostgresConnection, readOnly: Bool, _ body: (any StoreTransaction) throws -> T) throws -> T {
        let begin = readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN ISOLATION LEVEL READ COMMITTED"
        _ = try connection.simpleQuery(begin).wait()
        do {
            let result = try body(PostgresTransaction(connection: connection, logger: logger))
            _ = try connection.simpleQuery("COMMIT").wait()
            return result
        } catch {
            _ = try? connection.simpleQuery("ROLLBACK").wait()
            throw error
        }
    }

    /// Runs `body` with an idle connection, or a new one when none is idle; the connection is
    /// kept for the next caller unless it closed.
    private func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? connect()
        defer {
            if !connection.isClosed {
                idle.withLock { $0.append(connection) }
            }
        }
        return try body(connection)
    }

    /// Listens on `channel` on a connection of its own, calls `listening` once PostgreSQL
    /// has registered the listener, then `receive` with each payload announced, in commit
    /// order, until the task is cancelled (docs/scale-out.md, "Fan-out across instances").
    ///
    /// - Throws: when the connection cannot be made or drops; notifications sent meanwhile are
    ///   lost, so the caller listens again and then resyncs from the store.
    package func listen(
        on channel: String, listening: @Sendable () async -> Void, receive: @Sendable (String) async -> Void
    ) async throws {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let connection = try await PostgresConnection.connect(configuration: try configuration(), id: id, logger: logger)
        do {
            try await connection.listen(on: channel) { notifications in
                await listening()
                for try await notification in notifications {
                    await receive(notification.payload)
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    /// Takes the session advisory lock on the 64-bit hash of `key` (`pg_try_advisory_lock`) on
    /// a connection of its own and runs `body` while it holds it; the lock goes with the
    /// connection, so another instance can take it once this one stops or dies
    /// (docs/scale-out.md, "Fan-out across instances", cluster-wide background work).
    ///
    /// - Returns: false at once, without running `body`, when another session holds the lock;
    ///   true when `body` ran and returned (the lock is then released).
    /// - Throws: what `body` throws; ``SessionLockLost`` when the connection closed, or stopped
    ///   answering (``untilUnanswered(_:logger:)``), while `body` ran (`body` is cancelled first,
    ///   since another instance may hold the lock by now); the driver's error when the connection
    ///   cannot be made.
    package func whileHoldingSessionLock(_ key: String, _ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let connection = try await PostgresConnection.connect(configuration: try configuration(), id: id, logger: logger)
        do {
            var binds = PostgresBindings()
            binds.append(key)
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT pg_try_advisory_lock(hashtextextended($1, 0))", binds: binds), logger: logger
            )
            var held = false
            for try await row in rows {
                held = try row.decode(Bool.self)
            }
            guard held else {
                try? await connection.close()
                return false
            }
            // A leader whose machine dies sends nothing more: the server ends its session, and
            // so frees the lock, once these keep-alives go unanswered (about 25 s).
            _ = try await connection.query("SET tcp_keepalives_idle = 10", logger: logger)
            _ = try await connection.query("SET tcp_keepalives_interval = 5", logger: logger)
            _ = try await connection.query("SET tcp_keepalives_count = 3", logger: logger)
            let closed = connection.closeFuture
            let bodyReturned = try await withThrowingTaskGroup(of: Bool.self, returning: Bool.self) { group in
                group.addTask {
                    try await body()
                    return true
                }
                group.addTask {
                    try? await closed.get()
                    return false
                }
                group.addTask { [logger] in
                    await Self.untilUnanswered(connection, logger: logger)
                    return false
                }
                let first: Result<Bool, any Error>
                do {
                    first = .success(try await group.next() ?? false)
                } catch {
                    first = .failure(error)
                }
                // Cancels the body (its lock is gone, or it ended) and, by closing the
                // connection, ends the wait on it, so the group can end.
                group.cancelAll()
                try? await connection.close()
                return try first.get()
            }
            guard bodyReturned else { throw SessionLockLost(key: key) }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
        return true
    }

    /// How often the connection holding a session lock is asked whether it still answers, and
    /// how long an answer may take before the lock is taken for lost.
    static let lockCheckInterval = Duration.seconds(5)
    static let lockCheckTimeout = Duration.seconds(10)

    /// Returns once `connection` fails to answer `SELECT 1` within ``lockCheckTimeout`` (asked
    /// every ``lockCheckInterval``; a connection cut off by the network would otherwise look
    /// alive for as long as TCP takes to give up, while the server may have freed the lock), or
    /// when cancelled.
    private static func untilUnanswered(_ connection: PostgresConnection, logger: Logger) async {
        while true {
            do {
                try await Task.sleep(for: lockCheckInterval)
            } catch {
                return
            }
            let answered = await withTaskGroup(of: Bool.self) { check in
                check.addTask { (try? await connection.query("SELECT 1", logger: logger)) != nil }
                check.addTask {
                    try? await Task.sleep(for: lockCheckTimeout)
                    return false
                }
                let first = await check.next() ?? false
                check.cancelAll()
                if !first {
                    // Ends a query still waiting, so the group can end.
                    try? await connection.close()
                }
                return first
            }
            if !answered { return }
        }
    }

    private func connect() throws -> PostgresConnection {
        let id = nextID.add(1, ordering: .relaxed).newValue
        return try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(), configuration: try configuration(), id: id, logger: logger
        ).wait()
    }

    private func configuration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch address.endpoint {
        case .tcp(let host, let port):
            configuration = .init(host: host, port: port, username: address.user, password: address.password, database: address.database, tls: .disable)
        case .unixSocket(let directory, let port):
            configuration = .init(
                unixSocketPath: "\(directory)/.s.PGSQL.\(port)", username: address.user, password: address.password, database: address.database
            )
        }
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }

    private static func isRetryable(_ error: PSQLError) -> Bool {
        let state = error.serverInfo?[.sqlState]
        return state == "40001" || state == "40P01"
    }
}

/// The connection holding a session advisory lock closed (the server went, or ended the
/// session): the lock is released, and another instance may hold it now.
package struct SessionLockLost: Error, CustomStringConvertible {
    package var key: String
    package var description: String { "the connection holding the lock \"\(key)\" closed" }
}
