import Foundation
import Harness
import Testing
@testable import switchd
@testable import SwitchdStore

/// `switchd --database postgres://…`: read into a ``PostgresAddress``, refused with a reason
/// when it is not one, while the SQLite file stays the default.
@Suite("switchd --database")
struct DatabaseOptionTests {
    static func serve(_ arguments: [String]) throws -> ServeCommand {
        try #require(try SwitchdCommand.parseAsRoot(arguments) as? ServeCommand)
    }

    @Test func withoutItTheStateIsTheSQLiteFileInTheStateFolder() throws {
        #expect(try Self.serve(["--state-dir", "/tmp/x"]).databaseLocation == .sqlite(stateDirectory: "/tmp/x"))
    }

    @Test func aPostgresURLNamesTheServerUserAndDatabase() throws {
        let tcp = try Self.postgres(["--database", "postgres://switchd:secret@db.example:6543/floorscan"])
        #expect(tcp.endpoint == .tcp(host: "db.example", port: 6543))
        #expect(tcp.user == "switchd" && tcp.password == "secret" && tcp.database == "floorscan")
        let socket = try Self.postgres(["--database", "postgresql://switchd@/floorscan?host=/run/postgresql"])
        #expect(socket.endpoint == .unixSocket(directory: "/run/postgresql", port: PostgresAddress.defaultPort))
        #expect(socket.user == "switchd" && socket.password == nil && socket.database == "floorscan")
    }

    static func postgres(_ arguments: [String]) throws -> PostgresAddress {
        guard case .postgres(let address) = try serve(arguments).databaseLocation else {
            throw StoreError.notFound("no PostgreSQL address in \(arguments)")
        }
        return address
    }

    @Test(arguments: [
        ("mysql://switchd@db/floorscan", "not a database switchd knows"),
        ("postgres://db.example/floorscan", "names no user"),
        ("postgres://switchd@db.example/", "names no database"),
        ("postgres://switchd@/floorscan", "names no host"),
        ("postgres://switchd@db.example/floorscan?host=/run/postgresql", "both a host and ?host="),
        ("postgres://switchd@db.example/floorscan?sslmode=require", "unknown URL parameter \"sslmode\""),
        ("/var/lib/floorscan/switchd.sqlite", "is not a URL"),
    ])
    func aBadURLIsRefusedSayingWhy(url: String, reason: String) {
        #expect {
            _ = try SwitchdCommand.parseAsRoot(["--database", url])
        } throws: { error in
            let message = SwitchdCommand.message(for: error)
            return message.contains("--database") && message.contains(reason)
        }
    }

    /// The MQTT bridge and history retention run on PostgreSQL (each led by one instance):
    /// `--mqtt-broker` and `--keep-days` with a PostgreSQL database go on to connect (port 1:
    /// nothing listens there, so the start stops at the connection, saying so).
    @Test func theMQTTBridgeAndHistoryRetentionGoOnToConnect() async throws {
        for option in [["--mqtt-broker", "mqtt://127.0.0.1"], ["--keep-days", "7"]] {
            let serve = try Self.serve(["--database", "postgres://switchd@127.0.0.1:1/floorscan"] + option)
            await #expect {
                _ = try await serve.openDatabase(stateDirectory: "/nonexistent")
            } throws: { error in
                "\(error)".contains("--database: cannot open the PostgreSQL database")
            }
        }
    }

    @Test func aPostgresServerThatCannotBeReachedStopsTheStartNamingTheOptionAndTouchesNothing() async throws {
        let folder = try TemporaryFolder("database-option")
        defer { folder.remove() }
        // Port 1 on loopback: nothing listens there.
        let serve = try Self.serve(["--state-dir", folder.url.path, "--database", "postgres://switchd@127.0.0.1:1/floorscan"])
        await #expect {
            _ = try await serve.openDatabase(stateDirectory: folder.url.path)
        } throws: { error in
            "\(error)".contains("--database: cannot open the PostgreSQL database")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path(AppDatabase.fileName)))
    }
}
