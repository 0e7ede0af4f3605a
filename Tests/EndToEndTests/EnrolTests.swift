import Foundation
import Harness
import Testing

/// Adding a Pi in one step, with the real binaries: an admin makes a one-time code on an HTTPS
/// switchd with a self-signed certificate; `scannerd enrol` trades it for the token with only the
/// pin shown next to the code, writes the token file 0600 and its settings, and the scannerd run
/// from those settings reads its switch. A reused code and a wrong pin write nothing.
@Suite("End to end: enrolling a Pi by code", .serialized)
struct EnrolTests {
    static let curl = URL(fileURLWithPath: "/usr/bin/curl")

    @Test func aPiEnrolledByCodeRunsFromWhatEnrolWroteAndTheCodeWorksOnce() async throws {
        let folder = try TemporaryFolder("enrol")
        defer { folder.remove() }
        let made = try await SelfSignedCertificate.make("switchd", in: folder)
        let switchd = try await SwitchdInstance.start(in: folder, arguments: ["--tls-certificate", made.certificatePath, "--tls-key", made.keyPath])
        defer { switchd.process.signal(SIGKILL) }
        let https = "https://127.0.0.1:\(switchd.port)"

        let code = try await Self.makeCode(https, scannerID: "pi-e2e", switchd: switchd, certificate: made.certificatePath)
        // The pin switchd shows is the certificate's public key as openssl hashes it.
        let openssl = try await runToEnd(at: URL(fileURLWithPath: "/bin/sh"), [
            "-c", "openssl x509 -in '\(made.certificatePath)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64",
        ])
        #expect(code.pin == "sha256//" + openssl.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))

        // The operator's settings file, with a setting of their own and the commented defaults.
        let settings = folder.path("scannerd.toml")
        try "# my Pi\nbatch-size = 100\n\n# switchd's base URL.\n#switchd = \"http://127.0.0.1:8080\"\n".write(toFile: settings, atomically: true, encoding: .utf8)
        let tokenFile = folder.path("scannerd.token")
        let enrol = ["enrol", https, code.code, "--pin", code.pin, "--config", settings, "--token-file", tokenFile, "--no-restart", "--owner", "nobody-here"]
        let enrolled = try await runToEnd("scannerd", enrol)
        #expect(enrolled.status == 0, "\(enrolled.standardError)")
        let token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("fst_"))
        let mode = try FileManager.default.attributesOfItem(atPath: tokenFile)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let written = try String(contentsOfFile: settings, encoding: .utf8)
        for line in ["# my Pi", "batch-size = 100", "#switchd = \"http://127.0.0.1:8080\"", "switchd = \"\(https)\"",
                     "scanner-id = \"pi-e2e\"", "token-file = \"\(tokenFile)\"", "pin = \"\(code.pin)\""] {
            #expect(written.split(separator: "\n").contains(Substring(line)), "\(line) in:\n\(written)")
        }

        // The same code again: refused in switchd's words, and nothing written.
        let again = try await runToEnd("scannerd", enrol)
        #expect(again.status != 0)
        #expect(again.standardError.contains("was used at"), "\(again.standardError)")
        #expect(try String(contentsOfFile: tokenFile, encoding: .utf8).contains(token))

        // A wrong pin: refused before the code is sent, so the code still works afterwards.
        let second = try await Self.makeCode(https, scannerID: "pi-e2e-2", switchd: switchd, certificate: made.certificatePath)
        let otherToken = folder.path("other.token")
        let wrongPin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        let refused = try await runToEnd("scannerd", [
            "enrol", https, second.code, "--pin", wrongPin, "--config", folder.path("other.toml"), "--token-file", otherToken, "--no-restart",
        ])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("could not reach switchd"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: otherToken) && !FileManager.default.fileExists(atPath: folder.path("other.toml")))
        let withCA = try await runToEnd("scannerd", [
            "enrol", https, second.code, "--ca-file", made.certificatePath, "--config", folder.path("other.toml"), "--token-file", otherToken, "--no-restart",
        ])
        #expect(withCA.status == 0, "\(withCA.standardError)")

        // scannerd run from the written settings alone reaches switchd (pin and token) and reads its switch.
        let events = folder.path("events.jsonl")
        let scannerd = try ManagedProcess(
            name: "scannerd", executable: try Binaries.url("scannerd"),
            arguments: ["run", "--config", settings, "--state-dir", folder.path("scannerd-state"), "--radio", "simulated", "--events", events],
            stderrPath: folder.path("scannerd.stderr")
        )
        defer { scannerd.signal(SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(60)
        while !ScannerEvent.read(from: events).contains(where: { $0.event == "switch" }) {
            guard ContinuousClock.now < deadline, scannerd.isRunning else {
                Issue.record("scannerd read no switch; stderr:\n\(scannerd.stderrTail())")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    struct Code: Decodable {
        var code: String
        var pin: String
    }

    /// `POST /v1/enrolments` as admin, trusting the certificate.
    static func makeCode(_ https: String, scannerID: String, switchd: SwitchdInstance, certificate: String) async throws -> Code {
        let made = try await runToEnd(at: curl, [
            "-sS", "--fail-with-body", "--max-time", "30", "--cacert", certificate, "-H", "Authorization: Bearer \(switchd.adminToken)",
            "-H", "Content-Type: application/json", "-d", #"{"scannerID": "\#(scannerID)"}"#, "\(https)/v1/enrolments",
        ])
        #expect(made.status == 0, "\(made.standardOutput) \(made.standardError)")
        return try JSONDecoder().decode(Code.self, from: Data(made.standardOutput.utf8))
    }
}
