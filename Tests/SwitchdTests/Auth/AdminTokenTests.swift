import Foundation
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// The admin token of a first start, and `--admin-token-file`.
@Suite("Tokens: the admin token at start")
struct AdminTokenTests {
    @Test func aFirstStartWritesAnAdminTokenReadableByTheOwnerOnly() async throws {
        try await withTemporaryDatabase { database, directory in
            let outcome = try await AdminTokenBootstrap.run(database: database, stateDirectory: directory, configuredFile: nil)
            let path = URL(fileURLWithPath: directory).appendingPathComponent("admin.token").path
            #expect(outcome == .created(path: path))
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)
            #expect(mode.int16Value & 0o777 == 0o600, "mode \(String(mode.int16Value, radix: 8))")
            let token = try TokenFile.read(path)
            #expect(try await TokenAuthenticator(database: database).principal(for: token)?.role == .admin)

            // A second start finds it and leaves the file alone.
            #expect(try await AdminTokenBootstrap.run(database: database, stateDirectory: directory, configuredFile: nil) == .existing)
            #expect(try TokenFile.read(path).secret == token.secret)

            // With every admin token revoked, the next start makes a new one.
            let admin = try #require(try await database.tokens().first)
            _ = try await database.revokeToken(admin.id, at: Date())
            #expect(try await AdminTokenBootstrap.run(database: database, stateDirectory: directory, configuredFile: nil) == .created(path: path))
            #expect(try TokenFile.read(path).secret != token.secret)
        }
    }

    @Test func aConfiguredTokenFileIsUsedInstead() async throws {
        try await withTemporaryDatabase { database, directory in
            let file = URL(fileURLWithPath: directory).appendingPathComponent("given.token").path
            try "fst_operator-chose-this-one\n".write(toFile: file, atomically: true, encoding: .utf8)
            let outcome = try await AdminTokenBootstrap.run(database: database, stateDirectory: directory, configuredFile: file)
            #expect(outcome == .configured(path: file))
            #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: directory).appendingPathComponent("admin.token").path))
            let principal = try await TokenAuthenticator(database: database).principal(for: BearerToken("fst_operator-chose-this-one"))
            #expect(principal?.role == .admin)
            // Again: already stored, not stored twice.
            _ = try await AdminTokenBootstrap.run(database: database, stateDirectory: directory, configuredFile: file)
            #expect(try await database.tokens().count == 1)

            _ = try await database.revokeToken(try #require(principal).tokenID, at: Date())
            await #expect(throws: AdminTokenError.self) {
                try await AdminTokenBootstrap.run(database: database, stateDirectory: directory, configuredFile: file)
            }
        }
    }

    @Test func anEmptyOrMissingTokenFileIsAnErrorNamingIt() async throws {
        try await withTemporaryDatabase { database, directory in
            let file = URL(fileURLWithPath: directory).appendingPathComponent("empty.token").path
            try "\n".write(toFile: file, atomically: true, encoding: .utf8)
            let error = await #expect(throws: TokenFileError.self) {
                try await AdminTokenBootstrap.run(database: database, stateDirectory: directory, configuredFile: file)
            }
            #expect(error?.description.contains(file) == true)
            await #expect(throws: TokenFileError.self) {
                try await AdminTokenBootstrap.run(database: database, stateDirectory: directory, configuredFile: file + ".missing")
            }
        }
    }
}
