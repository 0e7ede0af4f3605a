import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// No token reaches a log line, at the most verbose level, whether it is good, unknown or revoked.
@Suite("Tokens: never logged")
struct TokenLoggingTests {
    final class LogLines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []

        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    struct CollectingHandler: LogHandler {
        let sink: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            sink.append("\(event.level) \(event.message) \(all)")
        }
    }

    @Test func noTokenAppearsInAnyLogLine() async throws {
        let sink = LogLines()
        let logger = Logger(label: "switchd-tests") { _ in CollectingHandler(sink: sink) }
        let database = try AppDatabase.inMemory()
        let admin = try await issueToken(database, .admin)
        let revoked = BearerToken.generate()
        let revokedInfo = try await database.issueToken(NewToken(role: .reader), token: revoked, at: Date())
        _ = try await database.revokeToken(revokedInfo.id, at: Date())
        let unknown = BearerToken.generate().secret
        let issued = try await makeUnauthenticatedApp(database, logger: logger).test(.router) { client in
            _ = try await client.get("/v1/floors", headers: bearer(admin))
            _ = try await client.get("/v1/floors", headers: bearer(revoked.secret))
            _ = try await client.get("/v1/floors", headers: bearer(unknown))
            _ = try await client.get("/v1/nowhere", headers: bearer(unknown))
            let reader = try await issueToken(database, .reader)
            _ = try await client.execute(uri: "/v1/floors", method: .post, headers: bearer(reader), body: try jsonBody(NewFloor(name: "G")))
            let response = try await client.execute(
                uri: "/v1/tokens", method: .post, headers: bearer(admin), body: try jsonBody(NewToken(role: .reader))
            )
            return try decoded(IssuedToken.self, response).token
        }
        let lines = sink.all
        #expect(lines.contains { $0.contains("Token issued") }, "the requests were logged: \(lines.count) lines")
        for secret in [admin, revoked.secret, unknown, issued] {
            let leaking = lines.filter { $0.contains(secret) }
            #expect(leaking.isEmpty, "a token is in \(leaking.count) log lines: \(leaking.prefix(2))")
        }
    }
}
