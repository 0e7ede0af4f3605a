import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL 15 server from Debian's `postgresql` package: a cluster made by
/// `initdb` in a temporary folder, listening on a free loopback port and on a Unix socket in
/// that folder, with `trust` authentication for its one role, ``user``. Nothing of the machine's
/// own clusters is touched. Started as root, the server runs as Debian's `postgres` user, since
/// PostgreSQL refuses to run as root.
public final class PostgresServer: @unchecked Sendable {
    /// Where Debian's `postgresql-15` puts the server's programs.
    public static let binaries = "/usr/lib/postgresql/15/bin"
    /// The role every connection uses (the cluster's superuser).
    public static let user = "floorscan"

    /// Whether this machine can run one: Debian's `postgresql` is installed.
    public static var isInstalled: Bool {
        ["initdb", "postgres", "psql", "pg_isready"].allSatisfy { FileManager.default.isExecutableFile(atPath: "\(binaries)/\($0)") }
    }

    /// Why tests that need a server are skipped here, or nil when one can be started.
    public static var missing: String? {
        isInstalled ? nil : "no PostgreSQL 15 in \(binaries): install Debian's postgresql (scripts/lib.sh floorscan_install_deps does)"
    }

    public let port: Int
    /// The folder holding the server's Unix socket (`.s.PGSQL.<port>`).
    public let socketDirectory: String
    private let folder: TemporaryFolder
    private let lock = NSLock()
    private var process: ManagedProcess?

    /// Makes a new cluster and starts its server; returns once it accepts queries.
    ///
    /// - Throws: ``HarnessError`` when PostgreSQL is not installed (``missing``), when started
    ///   as root and there is no `postgres` user, when `initdb` fails (its output is in the
    ///   message), or when the server does not accept queries within 60 s.
    public init() async throws {
        if let missing = Self.missing { throw HarnessError(missing) }
        folder = try TemporaryFolder("postgres")
        socketDirectory = folder.url.path
        port = try freeLoopbackPort()
        let owner = try Self.serverUser()
        if let owner, chown(folder.url.path, owner.uid, owner.gid) != 0 {
            throw HarnessError("chown \(folder.url.path): \(String(cString: strerror(errno)))")
        }
        let initdb = try await runToEnd(at: Self.launcher(owner), Self.prefix(owner) + [
            "\(Self.binaries)/initdb", "--pgdata", folder.path("data"), "--auth", "trust", "--username", Self.user,
            "--encoding", "UTF8", "--locale", "C.UTF-8", "--locale-provider", "icu", "--icu-locale", "en-US", "--no-sync",
        ])
        guard initdb.status == 0 else { throw HarnessError("initdb exited \(initdb.status): \(initdb.standardError)\(initdb.standardOutput)") }
        try await start(owner: owner)
    }

    /// `postgres://floorscan@127.0.0.1:<port>/<database>`: a URL for `switchd --database`.
    public func url(database: String) -> String {
        "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)"
    }

    /// Creates an empty database named `name` (a test's own, so tests do not share rows).
    ///
    /// - Throws: ``HarnessError`` with psql's message when the database cannot be made.
    public func createDatabase(_ name: String) async throws {
        _ = try await psql("CREATE DATABASE \"\(name)\"", database: "postgres")
    }

    /// Runs `sql` (one or more statements, stopping at the first error) with psql and returns
    /// what it printed, unaligned and without headers: one line per row, `|` between columns.
    ///
    /// - Throws: ``HarnessError`` with psql's error output when a statement fails.
    public func psql(_ sql: String, database: String) async throws -> String {
        let result = try await runToEnd(at: URL(fileURLWithPath: "\(Self.binaries)/psql"), [
            "--no-psqlrc", "--host", socketDirectory, "--port", "\(port)", "--username", Self.user, "--dbname", database,
            "--set", "ON_ERROR_STOP=1", "--quiet", "--no-align", "--tuples-only", "--command", sql,
        ])
        guard result.status == 0 else { throw HarnessError("psql exited \(result.status): \(result.standardError)") }
        return result.standardOutput
    }

    /// Runs the SQL script at `path` with psql (`--file`, which also takes `COPY … FROM STDIN`
    /// data inline, each ended by a line `\.`), stopping at the first error, in `database`.
    ///
    /// - Throws: ``HarnessError`` with psql's error output when a statement fails.
    public func psql(file path: String, database: String) async throws {
        let result = try await runToEnd(at: URL(fileURLWithPath: "\(Self.binaries)/psql"), [
            "--no-psqlrc", "--host", socketDirectory, "--port", "\(port)", "--username", Self.user, "--dbname", database,
            "--set", "ON_ERROR_STOP=1", "--quiet", "--file", path,
        ])
        guard result.status == 0 else { throw HarnessError("psql --file \(path) exited \(result.status): \(result.standardError)") }
    }

    /// Stops the server (fast shutdown: connections are ended, nothing is flushed that need
    /// not be) and removes its folder.
    public func remove() async {
        let running = lock.withLock { process }
        // SIGINT is PostgreSQL's fast shutdown; the SIGTERM that follows (a smart shutdown) does
        // not slow it, and the process is killed if it has not ended within 30 s.
        running?.signal(SIGINT)
        await running?.terminate(timeout: .seconds(30))
        folder.remove()
    }

    /// A test that failed before ``remove()`` leaves no server behind.
    deinit {
        process?.signal(SIGKILL)
    }

    /// What the server logged, for failure messages.
    public var log: String {
        (try? String(contentsOfFile: folder.path("postgres.log"), encoding: .utf8)) ?? ""
    }

    private func start(owner: (uid: uid_t, gid: gid_t)?) async throws {
        let started = try ManagedProcess(
            name: "postgres", executable: Self.launcher(owner),
            arguments: Self.prefix(owner) + [
                "\(Self.binaries)/postgres", "-D", folder.path("data"), "-p", "\(port)", "-k", socketDirectory,
                "-c", "listen_addresses=127.0.0.1",
            ],
            stderrPath: folder.path("postgres.log")
        )
        lock.withLock { process = started }
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let ready = try await runToEnd(at: URL(fileURLWithPath: "\(Self.binaries)/pg_isready"), [
                "--host", "127.0.0.1", "--port", "\(port)", "--username", Self.user, "--dbname", "postgres", "--quiet",
            ])
            if ready.status == 0 { return }
            guard started.isRunning else { throw HarnessError("postgres ended before accepting queries: \(log)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("postgres did not accept queries on port \(port) within 60 s: \(log)")
    }

    /// Debian's `postgres` user when this process is root (the server refuses to run as root),
    /// nil otherwise (the server runs as whoever runs the tests).
    private static func serverUser() throws -> (uid: uid_t, gid: gid_t)? {
        guard geteuid() == 0 else { return nil }
        guard let entry = getpwnam("postgres") else {
            throw HarnessError("running as root and there is no postgres user to run PostgreSQL as (Debian's postgresql package makes it)")
        }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// The program that starts the server's programs: `setpriv`, which drops to `owner` and
    /// then executes the program in its place (so a signal to it reaches the server itself).
    private static func launcher(_ owner: (uid: uid_t, gid: gid_t)?) -> URL {
        URL(fileURLWithPath: owner == nil ? "/usr/bin/env" : "/usr/bin/setpriv")
    }

    private static func prefix(_ owner: (uid: uid_t, gid: gid_t)?) -> [String] {
        guard let owner else { return [] }
        return ["--reuid=\(owner.uid)", "--regid=\(owner.gid)", "--clear-groups", "--"]
    }
}
