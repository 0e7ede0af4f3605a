import Foundation
import Harness
import Testing
@testable import scannerd

/// `scannerd run --ca-file`: against a real switchd serving HTTPS with a self-signed certificate,
/// the client trusts exactly the certificates of its CA file: switchd's own (a pin) is accepted,
/// another self-signed one and the system's trust store are refused at the handshake, and a file
/// that is no certificate stops it before any request.
@Suite("scannerd's HTTPS trust (--ca-file)", .serialized)
struct CAFileTests {
    /// A self-signed certificate for 127.0.0.1 and its key in `folder`.
    private func selfSigned(_ name: String, in folder: TemporaryFolder) async throws -> (certificate: String, key: String) {
        let made = try await SelfSignedCertificate.make(name, in: folder)
        return (made.certificatePath, made.keyPath)
    }

    @Test func switchdsOwnCertificateIsTrustedAndNothingElse() async throws {
        let folder = try TemporaryFolder("ca-file")
        defer { folder.remove() }
        let served = try await selfSigned("switchd", in: folder)
        let other = try await selfSigned("other", in: folder)
        let switchd = try await SwitchdInstance.start(in: folder, arguments: ["--tls-certificate", served.certificate, "--tls-key", served.key])
        defer { switchd.process.signal(SIGKILL) }
        let healthz = HTTPRequest(.get, URL(string: "https://127.0.0.1:\(switchd.port)/healthz")!, timeout: .seconds(30))

        let answer = try await CurlHTTPClient(caFile: served.certificate).send(healthz)
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self).contains(#""status":"ok""#))

        // Refused at the handshake.
        let wrongPinError = await #expect(throws: HTTPTransportError.self, "another certificate is no pin for switchd's") {
            _ = try await CurlHTTPClient(caFile: other.certificate).send(healthz)
        }
        #expect(wrongPinError?.code == .serverNotTrusted, "\(String(describing: wrongPinError))")

        let systemError = await #expect(throws: HTTPTransportError.self, "a self-signed certificate is in no system trust store") {
            _ = try await CurlHTTPClient().send(healthz)
        }
        #expect(systemError?.code == .serverNotTrusted, "\(String(describing: systemError))")
    }

    @Test func aFileThatIsNoCertificateIsRefusedNamingIt() throws {
        let folder = try TemporaryFolder("ca-file-bad")
        defer { folder.remove() }
        let bogus = folder.path("not-a-certificate.pem")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: bogus))
        for path in [bogus, folder.path("missing.pem")] {
            #expect {
                _ = try CurlHTTPClient(caFile: path)
            } throws: { error in
                "\(error)".hasPrefix("--ca-file \(path): ")
            }
        }
    }
}
