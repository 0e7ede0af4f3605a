import NIOSSL

/// The certificate chain and private key switchd serves HTTPS with (`--tls-certificate`,
/// `--tls-key`), both PEM.
struct TLSFiles: Sendable, Equatable {
    var certificatePath: String
    var keyPath: String

    struct Unusable: Error, CustomStringConvertible {
        var description: String
    }

    /// What ALPN offers, preferred first: HTTP/2, else HTTP/1.1.
    static let applicationProtocols = ["h2", "http/1.1"]

    /// A server TLS context (TLS 1.2 and 1.3, NIOSSL's default ciphers) from the two files,
    /// offering HTTP/2 and HTTP/1.1 by ALPN (``applicationProtocols``).
    ///
    /// - Throws: ``Unusable`` naming the file that cannot be read or holds no certificate or key.
    func makeContext() throws -> NIOSSLContext {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw Unusable(description: "--tls-certificate \(certificatePath): not a readable PEM certificate chain (\(error))")
        }
        guard !chain.isEmpty else {
            throw Unusable(description: "--tls-certificate \(certificatePath): holds no certificate")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        } catch {
            throw Unusable(description: "--tls-key \(keyPath): not a readable PEM private key (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.applicationProtocols = Self.applicationProtocols
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw Unusable(description: "--tls-certificate \(certificatePath) and --tls-key \(keyPath) do not make a TLS context (\(error))")
        }
    }
}
