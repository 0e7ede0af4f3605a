#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whom a `https://` switchd must be to be trusted.
enum CurlTrust: Sendable, Equatable {
    /// The system's trust store, and the host name checked against the certificate.
    case system
    /// Only the certificates in this PEM file (the building's CA, or switchd's own self-signed
    /// certificate, which then acts as a pin).
    case caFile(String)
    /// Only a server whose public key has this pin (`sha256//<base64>`), whatever its chain.
    case pin(String)

    /// Whether `text` is one pin as libcurl takes it: `sha256//` and the base64 of 32 bytes.
    static func isPin(_ text: String) -> Bool {
        guard text.hasPrefix("sha256//"), let bytes = Data(base64Encoded: String(text.dropFirst(8))) else { return false }
        return bytes.count == 32
    }
}
