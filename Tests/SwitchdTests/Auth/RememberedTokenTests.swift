import Foundation
import Harness
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Uploads are let in by a token found active before, without reading the token table
/// (``RememberedTokens``), and the ingest transaction checks the token again: a revocation holds
/// from the next upload on, also when another process made it, as `switchd token revoke` does.
@Suite("Access: remembered tokens and revocation")
struct RememberedTokenTests {
    static let now = Date(milliseconds: 1_790_000_100_000)

    /// Turns the default scanner's switch on; returns its revision and a new scanner token's secret.
    static func scanningWithAScannerToken(_ database: AppDatabase) async throws -> (revision: Int, token: String) {
        let revision = try await database.updateSwitch(of: .default, with: SwitchPatch(scanning: true), at: now).scanSwitch.revision
        return (revision, try await issueToken(database, .scanner, scannerID: .default))
    }

    @Test func anUploadTokenRevokedByAnotherProcessIsRefusedFromTheNextUploadOn() async throws {
        try await withTemporaryDatabase { database, directory in
            let (revision, scanner) = try await Self.scanningWithAScannerToken(database)
            let metrics = SwitchdMetrics()
            try await makeUnauthenticatedApp(database, metrics: metrics).test(.live) { client in
                func upload() async throws -> TestResponse {
                    try await client.execute(
                        uri: "/v1/measurements", method: .post, headers: bearer(scanner),
                        body: try jsonBody(Readings.batch([Readings.wifi(), Readings.ble()], revision: revision))
                    )
                }
                #expect(try await upload().status == .created)
                #expect(try await upload().status == .created, "a remembered token")
                let stored = try await StoredCounts(database)
                #expect(stored.batches == 2)

                // `switchd token revoke` opens the same file in its own process.
                let cli = try AppDatabase.open(stateDirectory: directory)
                let id = try #require(try await cli.tokens().first { $0.role == .scanner }).id
                _ = try await cli.revokeToken(id, at: Self.now)

                let refused = try await upload()
                #expect(refused.status == .unauthorized)
                #expect(refused.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
                #expect(try errorBody(refused).code == "unauthorized")
                #expect(try errorBody(refused).batchID == nil, "not a refusal of the batch: a scanner keeps it")
                #expect(try await upload().status == .unauthorized, "forgotten: read again, and refused before the body")
                #expect(try await StoredCounts(database) == stored, "nothing stored after the revocation")
            }
            let samples = PrometheusSamples(String(decoding: metrics.render(), as: UTF8.self))
            #expect(samples[#"switchd_auth_failures_total{reason="revoked_token"}"#] == 1)
            #expect(samples[#"switchd_auth_failures_total{reason="unknown_token"}"#] == 1)
        }
    }

    /// Only a route whose write checks the token again takes a remembered one: the same token,
    /// remembered by an upload, is refused on a read the moment it is revoked.
    @Test func otherRoutesReadTheTokenEveryTime() async throws {
        try await withTemporaryDatabase { database, directory in
            let (revision, scanner) = try await Self.scanningWithAScannerToken(database)
            try await makeUnauthenticatedApp(database).test(.live) { client in
                let upload = try await client.execute(
                    uri: "/v1/measurements", method: .post, headers: bearer(scanner),
                    body: try jsonBody(Readings.batch([Readings.wifi()], revision: revision))
                )
                #expect(upload.status == .created)
                #expect(try await client.get("/v1/scanners/default/switch", headers: bearer(scanner)).status == .ok)

                let cli = try AppDatabase.open(stateDirectory: directory)
                let id = try #require(try await cli.tokens().first { $0.role == .scanner }).id
                _ = try await cli.revokeToken(id, at: Self.now)
                #expect(try await client.get("/v1/scanners/default/switch", headers: bearer(scanner)).status == .unauthorized)
            }
        }
    }

    /// An upload refused before the store saw it (a body that does not validate, another scanner's
    /// ID) with a remembered token that was revoked meanwhile gets the 401 of a revoked token, not
    /// the 400 or 403 an active token would get; an active token still gets those.
    @Test func aRevokedRememberedTokenIsToldSoOnAnUploadRefusedForAnotherReason() async throws {
        try await withTemporaryDatabase { database, directory in
            let (revision, scanner) = try await Self.scanningWithAScannerToken(database)
            let metrics = SwitchdMetrics()
            try await makeUnauthenticatedApp(database, metrics: metrics).test(.live) { client in
                func upload(_ body: ByteBuffer) async throws -> TestResponse {
                    try await client.execute(uri: "/v1/measurements", method: .post, headers: bearer(scanner), body: body)
                }
                let good = try jsonBody(Readings.batch([Readings.wifi()], revision: revision))
                let malformed = ByteBuffer(string: #"{"scannerID": "#)
                let anotherScanners = try jsonBody(Readings.batch([Readings.wifi()], revision: revision, scanner: ScannerID("elsewhere")))
                #expect(try await upload(good).status == .created)
                #expect(try await upload(malformed).status == .badRequest, "active and remembered: the body's own refusal")
                #expect(try await upload(anotherScanners).status == .forbidden)
                let stored = try await StoredCounts(database)

                let cli = try AppDatabase.open(stateDirectory: directory)
                let id = try #require(try await cli.tokens().first { $0.role == .scanner }).id
                _ = try await cli.revokeToken(id, at: Self.now)

                let refused = try await upload(malformed)
                #expect(refused.status == .unauthorized)
                #expect(refused.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
                #expect(try await upload(anotherScanners).status == .unauthorized, "forgotten: read again before anything else")
                #expect(try await StoredCounts(database) == stored)
            }
            let samples = PrometheusSamples(String(decoding: metrics.render(), as: UTF8.self))
            #expect(samples[#"switchd_auth_failures_total{reason="revoked_token"}"#] == 1)
            #expect(samples[#"switchd_auth_failures_total{reason="unknown_token"}"#] == 1)
        }
    }

    @Test func rememberedTokensAreBounded() {
        let remembered = RememberedTokens(capacity: 3)
        let principal = Principal(tokenID: 1, name: "a", role: .reader, scannerID: nil)
        for index in 0..<3 { remembered.remember(principal, hash: [UInt8(index)]) }
        #expect(remembered.count == 3)
        remembered.remember(principal, hash: [1])
        #expect(remembered.count == 3, "one already remembered takes no room")
        remembered.remember(principal, hash: [9])
        #expect(remembered.count == 1, "full: cleared, then the new one")
        #expect(remembered.principal(hash: [9]) == principal)
        remembered.forget(hash: [9])
        #expect(remembered.principal(hash: [9]) == nil)
    }
}
