import Crypto
import Foundation
import GRDB
import ScanContract
import Synchronization
import Testing
@testable import switchd
@testable import SwitchdStore

/// How tokens are made, stored and compared.
@Suite("Tokens: made, hashed, compared")
struct TokenStorageTests {
    /// A byte sequence that counts how many of its bytes are read.
    final class CountingBytes: Collection, @unchecked Sendable {
        let bytes: [UInt8]
        private(set) var reads = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var startIndex: Int { bytes.startIndex }
        var endIndex: Int { bytes.endIndex }
        func index(after index: Int) -> Int { index + 1 }
        subscript(position: Int) -> UInt8 {
            reads += 1
            return bytes[position]
        }
    }

    @Test(arguments: [0, 15, 31])
    func theComparisonReadsEveryByteWhereverTheFirstDifferenceIs(_ differingAt: Int) {
        var other = [UInt8](repeating: 7, count: 32)
        other[differingAt] = 8
        let a = CountingBytes([UInt8](repeating: 7, count: 32))
        let b = CountingBytes(other)
        #expect(ConstantTime.equal(a, b) == false)
        #expect(a.reads == 32 && b.reads == 32, "read \(a.reads) and \(b.reads) bytes")
        #expect(ConstantTime.equal([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2]))
    }

    @Test func aTokenHashOffersOnlyTheConstantTimeComparison() {
        #expect(!(TokenHash.self is any Equatable.Type), "== on hashes would compare byte by byte and stop early")
        let token = BearerToken.generate()
        #expect(token.hash.matches(BearerToken(token.secret).hash))
        #expect(!token.hash.matches(BearerToken.generate().hash))
    }

    @Test func newTokensAreLongRandomAndPrefixed() {
        let tokens = (0..<50).map { _ in BearerToken.generate().secret }
        #expect(Set(tokens).count == 50)
        for token in tokens {
            #expect(token.hasPrefix("fst_") && token.count == 4 + 43, "\(token.count) characters")
            #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        }
        #expect("\(BearerToken.generate())" == "<redacted bearer token>")
    }

    @Test func onlyTheSHA256IsStoredNeverTheToken() async throws {
        try await withTemporaryDatabase { database, directory in
            let token = BearerToken.generate()
            _ = try await database.issueToken(NewToken(role: .reader), token: token, at: Date())
            let stored = try await database.writer.read { db in try Data.fetchOne(db, sql: "SELECT hash FROM token") }
            #expect(stored == Data(SHA256.hash(data: Data(token.secret.utf8))))
            _ = try await database.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            for file in try FileManager.default.contentsOfDirectory(atPath: directory) {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(file))
                #expect(bytes.range(of: Data(token.secret.utf8)) == nil, "\(file) holds the token")
            }
        }
    }

    @Test func theAuthenticatorFindsActiveTokensOnly() async throws {
        let database = try AppDatabase.inMemory()
        let authenticator = TokenAuthenticator(database: database)
        let reader = BearerToken.generate()
        let info = try await database.issueToken(NewToken(name: "wall display", role: .reader), token: reader, at: Date())
        let principal = try await authenticator.principal(for: reader)
        #expect(principal == Principal(tokenID: info.id, name: "wall display", role: .reader, scannerID: nil))
        #expect(try await authenticator.principal(for: BearerToken.generate()) == nil)
        _ = try await database.revokeToken(info.id, at: Date())
        #expect(try await authenticator.principal(for: reader) == nil)
        await #expect(throws: StoreError.notFound("no token 99")) { try await database.revokeToken(99, at: Date()) }
    }

    /// Every SELECT the authenticator runs is a search through an index, never a scan of the
    /// token table: a check costs one lookup however many tokens are stored.
    @Test func checkingATokenLooksItsHashUpInsteadOfReadingEveryToken() async throws {
        let selects = Mutex<[String]>([])
        var configuration = AppDatabase.configuration()
        configuration.prepareDatabase { db in
            db.trace(options: .statement) { event in
                let sql = event.expandedDescription
                if sql.hasPrefix("SELECT") { selects.withLock { $0.append(sql) } }
            }
        }
        let database = try AppDatabase(DatabaseQueue(configuration: configuration))
        for index in 0..<20 {
            _ = try await database.issueToken(NewToken(name: "reader \(index)", role: .reader), token: .generate(), at: Date())
        }
        let token = BearerToken.generate()
        _ = try await database.issueToken(NewToken(name: "the one", role: .reader), token: token, at: Date())
        selects.withLock { $0.removeAll() }

        #expect(try await TokenAuthenticator(database: database).principal(for: token)?.name == "the one")
        let traced = selects.withLock { $0 }
        #expect(!traced.isEmpty)
        for sql in traced {
            let plan = try await database.writer.read { db in try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String } }
            #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(sql): \(plan)")
        }
    }

    @Test func theSchemaRefusesAScannerTokenWithoutItsScanner() async throws {
        let database = try AppDatabase.inMemory()
        await #expect(throws: StoreError.self) {
            try await database.issueToken(NewToken(role: .scanner), token: .generate(), at: Date())
        }
        await #expect(throws: (any Error).self) {
            try await database.writer.write { db in
                try db.execute(sql: "INSERT INTO token (name, role, hash, created_ms) VALUES ('x', 'scanner', zeroblob(32), 0)")
            }
        }
    }
}
