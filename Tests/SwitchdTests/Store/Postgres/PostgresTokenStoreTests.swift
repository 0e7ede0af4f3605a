import Foundation
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Tokens and the principals made of them, with the same assertions on SQLite and on a real
/// PostgreSQL server (docs/scale-out.md, the first area moved onto ``StoreTransaction``).
@Suite("Tokens on both databases", postgresInstalled, .postgresServer)
struct PostgresTokenStoreTests {
    @Test(arguments: StoreBackend.allCases)
    func aTokenIsStoredListedFoundByItsHashAndRevokedOnce(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let issued = Date(milliseconds: 1_700_000_000_123)
            let token = BearerToken.generate()
            let info = try await database.issueToken(NewToken(name: "wall display", role: .reader), token: token, at: issued)
            #expect(info.name == "wall display" && info.role == .reader && info.scannerID == nil)
            #expect(info.created == issued && info.revoked == nil)
            let scannerID = try ScannerID("default")
            let scanner = try await database.issueToken(NewToken(role: .scanner, scannerID: scannerID), token: .generate(), at: issued)
            #expect(scanner.id > info.id && scanner.scannerID == scannerID)

            #expect(try await database.tokens().map(\.id) == [info.id, scanner.id])
            #expect(try await database.tokenInfo(hash: Array(token.hash.bytes)) == info)
            #expect(try await database.activeToken(hash: Array(token.hash.bytes))?.hash == Array(token.hash.bytes))

            let firstRevocation = Date(milliseconds: 1_700_000_100_000)
            #expect(try await database.revokeToken(info.id, at: firstRevocation).revoked == firstRevocation)
            #expect(try await database.revokeToken(info.id, at: Date(milliseconds: 1_700_000_200_000)).revoked == firstRevocation)
            #expect(try await database.activeToken(hash: Array(token.hash.bytes)) == nil)
            #expect(try await database.tokenInfo(hash: Array(token.hash.bytes))?.revoked == firstRevocation)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aHashStoredTwiceAnUnknownIDAndAScannerTokenWithoutItsScannerAreRefused(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let token = BearerToken.generate()
            _ = try await database.issueToken(NewToken(role: .admin), token: token, at: Date())
            await #expect(throws: StoreError.conflict("that token is already stored")) {
                try await database.issueToken(NewToken(role: .reader), token: token, at: Date())
            }
            await #expect(throws: StoreError.notFound("no token 99")) { try await database.revokeToken(99, at: Date()) }
            await #expect(throws: StoreError.self) { try await database.issueToken(NewToken(role: .scanner), token: .generate(), at: Date()) }
            #expect(try await database.tokens().count == 1)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anAdminTokenIsUsableUntilRevoked(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            #expect(try await !database.hasActiveAdminToken())
            _ = try await database.issueToken(NewToken(role: .reader), token: .generate(), at: Date())
            #expect(try await !database.hasActiveAdminToken())
            let admin = try await database.issueToken(NewToken(role: .admin), token: .generate(), at: Date())
            #expect(try await database.hasActiveAdminToken())
            _ = try await database.revokeToken(admin.id, at: Date())
            #expect(try await !database.hasActiveAdminToken())
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func theAuthenticatorMakesPrincipalsOfActiveTokensOnly(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let authenticator = TokenAuthenticator(database: database)
            let reader = BearerToken.generate()
            let info = try await database.issueToken(NewToken(name: "wall display", role: .reader), token: reader, at: Date())
            #expect(try await authenticator.principal(for: reader) == Principal(tokenID: info.id, name: "wall display", role: .reader, scannerID: nil))
            #expect(try await authenticator.principal(for: BearerToken.generate()) == nil)
            _ = try await database.revokeToken(info.id, at: Date())
            #expect(try await authenticator.principal(for: reader) == nil)
        }
    }
}
