import Crypto
import Foundation
import ScanContract

/// The Standard Webhooks signature of one delivery: `webhook-signature` is `v1,` and the base64
/// of HMAC-SHA256, keyed with the secret's bytes, over `<webhook-id>.<webhook-timestamp>.<body>`.
/// Receivers check it with any Standard Webhooks library and the secret they were given.
struct WebhookSignature: Sendable {
    static let idHeader = "webhook-id"
    static let timestampHeader = "webhook-timestamp"
    static let signatureHeader = "webhook-signature"

    /// The message ID: the same on every attempt, so a receiver can drop a repeat.
    var id: String
    /// Seconds since 1970 when the attempt is made.
    var timestamp: Int64

    /// The header value, e.g. `v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=`; nil when `secret`
    /// is not a Standard Webhooks secret (switchd refuses such secrets when they are registered).
    func sign(_ body: [UInt8], secret: String) -> String? {
        guard let key = NewWebhook.signingKey(of: secret) else { return nil }
        var signed = Array("\(id).\(timestamp).".utf8)
        signed += body
        let code = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: key))
        return "v1," + Data(code).base64EncodedString()
    }

    /// A new secret: `whsec_` and the base64 of 32 random bytes.
    static func generateSecret() -> String {
        let key = SymmetricKey(size: .bits256)
        return NewWebhook.secretPrefix + key.withUnsafeBytes { Data($0).base64EncodedString() }
    }
}
