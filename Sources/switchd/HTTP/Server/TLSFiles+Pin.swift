import Crypto
import Foundation
import NIOSSL

extension TLSFiles {
    /// The pin of the served certificate's public key as libcurl takes it
    /// (`CURLOPT_PINNEDPUBLICKEY`, curl's `--pinnedpubkey`): `sha256//` and the base64 of the
    /// SHA-256 of its SubjectPublicKeyInfo. A Pi given it trusts this switchd before it holds the
    /// certificate (`scannerd enrol --pin`); the pin stays valid across a renewal that keeps the key.
    ///
    /// - Throws: ``Unusable`` when the certificate cannot be read.
    func publicKeyPin() throws -> String {
        do {
            guard let leaf = try NIOSSLCertificate.fromPEMFile(certificatePath).first else {
                throw Unusable(description: "--tls-certificate \(certificatePath): holds no certificate")
            }
            return Self.pin(spki: try leaf.extractPublicKey().toSPKIBytes())
        } catch let error as Unusable {
            throw error
        } catch {
            throw Unusable(description: "--tls-certificate \(certificatePath): no public key to pin (\(error))")
        }
    }

    static func pin(spki: [UInt8]) -> String {
        "sha256//" + Data(SHA256.hash(data: spki)).base64EncodedString()
    }
}
