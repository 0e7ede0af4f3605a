import Foundation
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `POST /v1/tokens` makes scanner tokens for registered scanners only: a token for a typo
/// would be refused at scannerd's every request, far from the mistake.
@Suite struct ScannerTokenIssueTests {
    @Test func aScannerTokenForAnUnregisteredScannerIsRefusedNamingItAndNothingIsStored() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let before = try await client.expect(.ok, get: "/v1/tokens", as: [TokenInfo].self)
            let refused = try await client.send(.post, "/v1/tokens", json: NewToken(role: .scanner, scannerID: try ScannerID("pi-typo")))
            #expect(refused.status == .unprocessableContent)
            let error = try errorBody(refused)
            #expect(error.field == "scannerID" && error.message.contains("pi-typo"), "\(error.message)")
            #expect(try await client.expect(.ok, get: "/v1/tokens", as: [TokenInfo].self) == before, "nothing stored")

            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: try ScannerID("pi-typo")), as: ScanContract.Scanner.self)
            let issued = try await client.expect(
                .created, .post, "/v1/tokens", json: NewToken(role: .scanner, scannerID: try ScannerID("pi-typo")), as: IssuedToken.self
            )
            #expect(issued.info.scannerID?.rawValue == "pi-typo")
            _ = try await client.expect(.created, .post, "/v1/tokens", json: NewToken(role: .scanner, scannerID: .default), as: IssuedToken.self)
        }
    }
}
