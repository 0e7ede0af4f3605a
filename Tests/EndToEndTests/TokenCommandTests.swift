import Foundation
import Harness
import ScanContract
import Testing

/// `switchd token issue|list|revoke` on a real state folder, next to a running switchd, and what
/// switchd writes and logs about tokens.
@Suite("End to end: the token command and the admin token file", .serialized)
struct TokenCommandTests {
    @Test func issueUseListAndRevokeWhileSwitchdRuns() async throws {
        let folder = try TemporaryFolder("tokens")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(in: folder, arguments: ["--log-level", "trace"])
        defer { switchd.process.signal(SIGKILL) }
        let state = ["--state-dir", switchd.stateDir]

        let adminFile = URL(fileURLWithPath: switchd.stateDir).appendingPathComponent("admin.token").path
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: adminFile)[.posixPermissions] as? NSNumber)
        #expect(mode.int16Value & 0o777 == 0o600, "admin.token has mode \(String(mode.int16Value, radix: 8))")

        let issue = try await runToEnd("switchd", ["token", "issue", "--role", "reader", "--name", "wall display"] + state)
        #expect(issue.status == 0, "\(issue.standardError)")
        let reader = issue.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(reader.hasPrefix("fst_") && !reader.contains("\n"), "prints the token alone: \(issue.standardOutput)")
        #expect(!issue.standardError.contains(reader))

        let client = APIClient(baseURL: switchd.baseURL, token: reader)
        #expect(try await client.send("GET", "/v1/floors").status == 200)
        #expect(try await client.send("POST", "/v1/floors", json: NewFloor(name: "G")).status == 403)

        let list = try await runToEnd("switchd", ["token", "list", "--json"] + state)
        #expect(list.status == 0, "\(list.standardError)")
        let tokens = try JSONCoding.decoder().decode([TokenInfo].self, from: Data(list.standardOutput.utf8))
        let listed = try #require(tokens.first { $0.name == "wall display" })
        #expect(listed.role == .reader && listed.revoked == nil)
        #expect(tokens.contains { $0.role == .admin }, "the admin token of the first start")
        #expect(!list.standardOutput.contains(reader) && !list.standardOutput.contains(switchd.adminToken))

        let revoke = try await runToEnd("switchd", ["token", "revoke", String(listed.id)] + state)
        #expect(revoke.status == 0, "\(revoke.standardError)")
        let refused = try await client.send("GET", "/v1/floors")
        #expect(refused.status == 401, "a revoked token is refused by the running switchd")
        #expect(refused.headers["www-authenticate"]?.hasPrefix("Bearer") == true)

        // The table: ID, ROLE, SCANNER, CREATED, REVOKED, NAME; the revoked token now has a date.
        let table = try await runToEnd("switchd", ["token", "list"] + state)
        let row = table.standardOutput.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }.first { $0.first == String(listed.id) }
        #expect(row?.count == 6 && row?[1] == "reader" && row?[5] == "wall display", "\(table.standardOutput)")
        #expect(row.map { JSONCoding.parseDate($0[4]) != nil } == true, "REVOKED holds the time: \(row ?? [])")

        // Neither the log nor the listing line ever carries a token.
        let log = try String(contentsOfFile: switchd.process.stderrPath, encoding: .utf8)
        #expect(log.contains("admin.token"), "the log says where the admin token is")
        #expect(!log.contains(switchd.adminToken) && !log.contains(reader), "a token is in switchd's log")
    }

    @Test func theCommandRefusesAScannerTokenWithoutAScannerAndAnUnknownID() async throws {
        let folder = try TemporaryFolder("tokens-bad")
        defer { folder.remove() }
        let state = ["--state-dir", folder.path("state")]
        let unbound = try await runToEnd("switchd", ["token", "issue", "--role", "scanner"] + state)
        #expect(unbound.status != 0)
        #expect(unbound.standardError.contains("--scanner-id"), "\(unbound.standardError)")
        #expect(unbound.standardOutput.isEmpty)
        let unregistered = try await runToEnd("switchd", ["token", "issue", "--role", "scanner", "--scanner-id", "pi-typo"] + state)
        #expect(unregistered.status != 0, "a scanner token only for a registered scanner")
        #expect(unregistered.standardError.contains("--scanner-id") && unregistered.standardError.contains("pi-typo"), "\(unregistered.standardError)")
        #expect(unregistered.standardOutput.isEmpty)
        let registered = try await runToEnd("switchd", ["token", "issue", "--role", "scanner", "--scanner-id", "default"] + state)
        #expect(registered.status == 0 && registered.standardOutput.hasPrefix("fst_"), "\(registered.standardError)")
        let unknown = try await runToEnd("switchd", ["token", "revoke", "42"] + state)
        #expect(unknown.status != 0)
        #expect(unknown.standardError.contains("no token 42"), "\(unknown.standardError)")
    }

    @Test func aGivenAdminTokenFileReplacesTheGeneratedOne() async throws {
        let folder = try TemporaryFolder("tokens-given")
        defer { folder.remove() }
        let given = folder.path("given.token")
        try "fst_given-by-the-operator\n".write(toFile: given, atomically: true, encoding: .utf8)
        let process = try ManagedProcess(
            name: "switchd", executable: try Binaries.url("switchd"),
            arguments: ["--port", "0", "--state-dir", folder.path("state"), "--admin-token-file", given],
            stderrPath: folder.path("switchd.stderr")
        )
        defer { process.signal(SIGKILL) }
        let line = try await process.waitForLine(timeout: .seconds(60)) { $0.hasPrefix("switchd listening on") }
        let url = try #require(URL(string: String(line.dropFirst("switchd listening on ".count))))
        #expect(!FileManager.default.fileExists(atPath: folder.path("state/admin.token")))
        #expect(try await APIClient(baseURL: url, token: "fst_given-by-the-operator").send("GET", "/v1/tokens").status == 200)
        #expect(try await APIClient(baseURL: url).send("GET", "/v1/tokens").status == 401)
    }
}
