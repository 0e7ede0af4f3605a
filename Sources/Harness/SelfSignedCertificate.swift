import Foundation

/// A self-signed P-256 certificate for 127.0.0.1 (CN and subjectAltName) and its key, made by
/// Debian's `openssl` in a test's folder: what a TLS server on loopback presents, and what a
/// client given it as its CA file trusts.
public struct SelfSignedCertificate: Sendable {
    public static let openssl = URL(fileURLWithPath: "/usr/bin/openssl")

    /// The certificate, PEM.
    public let certificatePath: String
    /// Its private key, PEM, unencrypted.
    public let keyPath: String

    /// Makes `<name>.crt` and `<name>.key` in `folder`, valid for two days.
    ///
    /// - Throws: ``HarnessError`` when openssl cannot be started or fails.
    public static func make(_ name: String, in folder: TemporaryFolder) async throws -> SelfSignedCertificate {
        let made = SelfSignedCertificate(certificatePath: folder.path("\(name).crt"), keyPath: folder.path("\(name).key"))
        let result = try await runToEnd(at: openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", made.keyPath, "-out", made.certificatePath,
        ])
        guard result.status == 0 else { throw HarnessError("openssl req: \(result.standardError)") }
        return made
    }
}
