import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// What a refused request is told: 401 with a Bearer challenge, 403, in the v1 error JSON.
@Suite("Access: 401 and 403 answers")
struct AuthAnswerTests {
    @Test func noTokenIs401WithABearerChallengeAndTheErrorJSON() async throws {
        try await makeUnauthenticatedApp(try .inMemory()).test(.router) { client in
            let response = try await client.get("/v1/floors")
            #expect(response.status == .unauthorized)
            #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="switchd""#)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            let error = try errorBody(response)
            #expect(error.code == "unauthorized")
            #expect(error.message.contains("Authorization: Bearer"))
        }
    }

    @Test(arguments: ["Bearer fst_not-a-token-switchd-issued", "Basic YWRtaW46YWRtaW4=", "Bearer", "bearer  "])
    func aBadTokenOrSchemeIs401InvalidToken(_ authorization: String) async throws {
        try await makeUnauthenticatedApp(try .inMemory()).test(.router) { client in
            let response = try await client.get("/v1/floors", headers: [.authorization: authorization])
            #expect(response.status == .unauthorized)
            #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer ") == true)
            #expect(response.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
            #expect(try errorBody(response).code == "unauthorized")
            #expect(!response.body.readableBytesView.isEmpty)
            #expect(!String(buffer: response.body).contains("fst_not-a-token"), "the answer does not quote the token")
        }
    }

    @Test func theBearerSchemeIsCaseInsensitive() async throws {
        let database = try AppDatabase.inMemory()
        let reader = try await issueToken(database, .reader)
        try await makeUnauthenticatedApp(database).test(.router) { client in
            let response = try await client.get("/v1/floors", headers: [.authorization: "bEaReR " + reader])
            #expect(response.status == .ok)
        }
    }

    @Test func theWrongRoleIs403NamingTheRoleNeeded() async throws {
        let database = try AppDatabase.inMemory()
        let reader = try await issueToken(database, .reader)
        try await makeUnauthenticatedApp(database).test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/floors", method: .post, headers: bearer(reader), body: try jsonBody(NewFloor(name: "Ground"))
            )
            #expect(response.status == .forbidden)
            #expect(response.headers[.wwwAuthenticate] == nil)
            let error = try errorBody(response)
            #expect(error.code == "forbidden")
            #expect(error.message.contains("reader") && error.message.contains("admin"), "\(error.message)")
            #expect(try await StoredCounts(database).floors == 0)
        }
    }

    @Test func aRevokedTokenIsRefusedFromTheNextRequestOn() async throws {
        let database = try AppDatabase.inMemory()
        let admin = try await issueToken(database, .admin)
        let reader = try await issueToken(database, .reader, name: "dashboard")
        try await makeUnauthenticatedApp(database).test(.router) { client in
            #expect(try await client.get("/v1/floors", headers: bearer(reader)).status == .ok)
            let listed = try decoded([TokenInfo].self, try await client.get("/v1/tokens", headers: bearer(admin)))
            let id = try #require(listed.first { $0.name == "dashboard" }?.id)
            let revoked = try await client.execute(uri: "/v1/tokens/\(id)", method: .delete, headers: bearer(admin))
            #expect(revoked.status == .ok)
            #expect(try decoded(TokenInfo.self, revoked).revoked != nil)
            let refused = try await client.get("/v1/floors", headers: bearer(reader))
            #expect(refused.status == .unauthorized)
            #expect(try errorBody(refused).message.contains("revoked"))
            #expect(try await client.get("/v1/floors", headers: bearer(admin)).status == .ok, "other tokens still work")
        }
    }

    @Test func aScannerTokenSpeaksOnlyForItsOwnScanner() async throws {
        let database = try AppDatabase.inMemory()
        let pi2 = try ScannerID("pi-2")
        _ = try await database.createScanner(NewScanner(id: pi2), at: Date())
        let own = try await issueToken(database, .scanner, scannerID: pi2)
        try await makeUnauthenticatedApp(database).test(.router) { client in
            #expect(try await client.get("/v1/scanners/pi-2/switch", headers: bearer(own)).status == .ok)
            let other = try await client.get("/v1/scanners/default/switch", headers: bearer(own))
            #expect(other.status == .forbidden)
            #expect(try errorBody(other).message.contains("pi-2"))
            #expect(try await client.execute(uri: "/v1/scanners/pi-2/switch", method: .patch, headers: bearer(own),
                                             body: try jsonBody(SwitchPatch(scanning: true))).status == .forbidden,
                    "changing a switch is the admin's")

            let foreign = Readings.batch([Readings.wifi()], revision: 1, scanner: .default)
            let refused = try await client.execute(uri: "/v1/measurements", method: .post, headers: bearer(own), body: try jsonBody(foreign))
            #expect(refused.status == .forbidden)
            #expect(try await StoredCounts(database).batches == 0, "nothing of the refused batch is stored")
            // Its own batch passes the token check and meets the ingest rules: revision 1 never scanned.
            let mine = Readings.batch([Readings.wifi()], revision: 1, scanner: pi2)
            let ingested = try await client.execute(uri: "/v1/measurements", method: .post, headers: bearer(own), body: try jsonBody(mine))
            #expect(ingested.status == .unprocessableContent)
            #expect(try errorBody(ingested).field == "switchRevision")
        }
    }

    @Test func healthIsOpenAndAnUnknownPathTellsOnlyATokenHolderThatItIsMissing() async throws {
        let database = try AppDatabase.inMemory()
        let reader = try await issueToken(database, .reader)
        try await makeUnauthenticatedApp(database).test(.router) { client in
            #expect(try await client.get("/healthz").status == .ok)
            #expect(try await client.get("/v1/nothing-here").status == .unauthorized)
            let missing = try await client.get("/v1/nothing-here", headers: bearer(reader))
            #expect(missing.status == .notFound)
            #expect(try errorBody(missing).code == "not_found")
        }
    }

    @Test func tokensAreIssuedOverHTTPOnceAndListedWithoutSecrets() async throws {
        let database = try AppDatabase.inMemory()
        let admin = try await issueToken(database, .admin)
        try await makeUnauthenticatedApp(database).test(.router) { client in
            let issued = try await client.execute(
                uri: "/v1/tokens", method: .post, headers: bearer(admin),
                body: try jsonBody(NewToken(role: .scanner, scannerID: .default))
            )
            #expect(issued.status == .created)
            let token = try decoded(IssuedToken.self, issued)
            #expect(token.token.hasPrefix(BearerToken.prefix))
            #expect(token.info.name == "scanner default")
            #expect(try await client.get("/v1/radiomap", headers: bearer(token.token)).status == .ok)
            let list = try await client.get("/v1/tokens", headers: bearer(admin))
            #expect(!String(buffer: list.body).contains(token.token))
            #expect(try decoded([TokenInfo].self, list).count == 2)

            let unbound = try await client.execute(
                uri: "/v1/tokens", method: .post, headers: bearer(admin), body: try jsonBody(NewToken(role: .scanner))
            )
            #expect(unbound.status == .unprocessableContent)
            #expect(try errorBody(unbound).field == "scannerID")
        }
    }
}
