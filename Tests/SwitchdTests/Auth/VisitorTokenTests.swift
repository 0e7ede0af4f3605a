import Foundation
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// The `visitor` role: an admin issues it, it is bound to nothing, and what it reads is the
/// visitor page's (every route × role is in ``RouteAccessTests``).
@Suite("Tokens: the visitor role")
struct VisitorTokenTests {
    @Test func anAdminIssuesAVisitorTokenThatReadsThePlanButNotTheReadings() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let issued = try await client.expect(.created, .post, "/v1/tokens", json: NewToken(name: "visitor", role: .visitor), as: IssuedToken.self)
            #expect(issued.info.role == .visitor && issued.info.scannerID == nil)
            let bound = try await client.send(.post, "/v1/tokens", json: NewToken(role: .visitor, scannerID: .default))
            #expect(bound.status == .unprocessableContent, "only scanner tokens name a scanner: \(String(buffer: bound.body))")

            #expect(try await client.get("/v1/floors", headers: bearer(issued.token)).status == .ok)
            #expect(try await client.get("/v1/measurements", headers: bearer(issued.token)).status == .forbidden)
            #expect(try await client.get("/metrics", headers: bearer(issued.token)).status == .forbidden)
        }
    }
}
