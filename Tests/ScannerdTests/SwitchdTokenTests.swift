import Foundation
import ScanContract
import Testing
@testable import scannerd

/// scannerd's bearer token: read from `--token-file`, sent on every request, never printed.
@Suite("the token scannerd sends switchd")
struct SwitchdTokenTests {
    @Test func everyCallToSwitchdCarriesTheToken() async throws {
        let client = ScriptedHTTPClient { request, _ in
            switch request.url.path {
            case "/v1/scanners/default/switch":
                return HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(ScanSwitch.initial(for: .default, at: Date())))
            default:
                return HTTPResponse(status: 401, body: try JSONCoding.encoder().encode(APIErrorBody(code: "unauthorized", message: "no")))
            }
        }
        let api = SwitchdAPI(baseURL: URL(string: "http://switchd.invalid:8080")!, client: client, token: SwitchdToken("fst_secret"))
        _ = try await api.scanSwitch(of: .default, afterRevision: nil, wait: .seconds(1))
        _ = try await api.scanSwitch(of: .default, afterRevision: 1, wait: .seconds(1))
        _ = try? await api.location(1)
        _ = try await api.postBatch(Data("{}".utf8))
        _ = try? await api.radioMap(ifNoneMatch: "\"v1\"")
        let position = NewPosition(
            scannerID: .default, time: Date(), building: "main", floor: 1, x: 1, y: 2,
            roomID: nil, nearestLocationID: nil, accuracyMetres: 3, method: "knn"
        )
        _ = try? await api.postPosition(position)
        let requests = await client.requests
        #expect(requests.count == 6)
        #expect(requests.allSatisfy { $0.headers["Authorization"] == "Bearer fst_secret" }, "\(requests.map { $0.url.path })")
        #expect(requests.last { $0.url.path == "/v1/radiomap" }?.headers["If-None-Match"] == "\"v1\"", "other headers are kept")
    }

    @Test func withoutATokenNoAuthorizationIsSent() async throws {
        let client = ScriptedHTTPClient { _, _ in HTTPResponse(status: 201, body: Data()) }
        let api = SwitchdAPI(baseURL: URL(string: "http://switchd.invalid:8080")!, client: client)
        _ = try await api.postBatch(Data("{}".utf8))
        #expect(await client.requests.first?.headers["Authorization"] == nil)
    }

    @Test func theTokenFileIsReadAndTheTokenNeverPrinted() throws {
        let directory = try TemporaryDirectory()
        try "  fst_from-file  \nignored\n".write(toFile: directory.file("token"), atomically: true, encoding: .utf8)
        let token = try SwitchdToken.read(from: directory.file("token"))
        #expect(token.authorization == "Bearer fst_from-file")
        #expect("\(token)" == "<redacted bearer token>")
        #expect(!String(reflecting: token).contains("fst_from-file"))

        try "\n".write(toFile: directory.file("empty"), atomically: true, encoding: .utf8)
        let empty = #expect(throws: SwitchdTokenError.self) { try SwitchdToken.read(from: directory.file("empty")) }
        #expect(empty?.description.contains(directory.file("empty")) == true)
        #expect(throws: SwitchdTokenError.self) { try SwitchdToken.read(from: directory.file("missing")) }
    }

    @Test func runTakesTheTokenFromAFileOnly() throws {
        let command = try RunCommand.parse(["--token-file", "/etc/floorscan/scannerd.token"])
        #expect(command.tokenFile == "/etc/floorscan/scannerd.token")
        #expect(throws: (any Error).self) { try RunCommand.parse(["--token", "fst_on-the-command-line"]) }
    }
}
