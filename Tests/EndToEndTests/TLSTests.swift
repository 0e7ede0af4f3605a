import Foundation
import Harness
import Testing

/// switchd serves HTTPS with `--tls-certificate` and `--tls-key`; a client that trusts the
/// certificate (curl here; scannerd with --ca-file in ScannerdTests/HTTP/CAFileTests) gets its answers, one that
/// does not is refused at the handshake, and plain HTTP gets nothing.
@Suite("End to end: HTTPS", .serialized)
struct TLSTests {
    static let curl = URL(fileURLWithPath: "/usr/bin/curl")

    @Test func switchdServesHTTPSToAClientThatTrustsItsCertificate() async throws {
        let folder = try TemporaryFolder("tls")
        defer { folder.remove() }
        let made = try await SelfSignedCertificate.make("switchd", in: folder)
        let certificate = made.certificatePath
        let key = made.keyPath
        let switchd = try await SwitchdInstance.start(in: folder, arguments: ["--tls-certificate", certificate, "--tls-key", key])
        defer { switchd.process.signal(SIGKILL) }
        #expect(switchd.process.outputLines.contains { $0.hasPrefix("switchd listening on https://") })
        let https = "https://127.0.0.1:\(switchd.port)"

        let trusted = try await runToEnd(at: Self.curl, ["-sS", "--max-time", "30", "--cacert", certificate, "\(https)/healthz"])
        #expect(trusted.status == 0, "\(trusted.standardError)")
        #expect(trusted.standardOutput.contains(#""status":"ok""#), "\(trusted.standardOutput)")
        let withToken = try await runToEnd(at: Self.curl, [
            "-sS", "--max-time", "30", "--cacert", certificate, "-o", "/dev/null", "-w", "%{http_code}",
            "-H", "Authorization: Bearer \(switchd.adminToken)", "\(https)/v1/floors",
        ])
        #expect(withToken.standardOutput == "200", "\(withToken.standardError)")

        let untrusted = try await runToEnd(at: Self.curl, ["-sS", "--max-time", "30", "\(https)/healthz"])
        #expect(untrusted.status == 60, "curl's 'peer certificate cannot be authenticated': \(untrusted.standardError)")
        let plain = try await runToEnd(at: Self.curl, ["-sS", "--max-time", "30", "http://127.0.0.1:\(switchd.port)/healthz"])
        #expect(plain.status != 0, "plain HTTP gets no answer from an HTTPS port: \(plain.standardOutput)")
    }

    @Test func aKeyFileThatIsNoKeyStopsSwitchdNamingIt() async throws {
        let folder = try TemporaryFolder("tls-bad")
        defer { folder.remove() }
        let bogus = folder.path("not-a-key.pem")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: bogus))
        let ended = try await runToEnd("switchd", [
            "--port", "0", "--state-dir", folder.path("state"), "--tls-certificate", bogus, "--tls-key", bogus,
        ])
        #expect(ended.status != 0)
        #expect(ended.standardError.contains("--tls-certificate \(bogus)"), "\(ended.standardError)")
    }
}
