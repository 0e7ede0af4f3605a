import Crypto
import Foundation

/// A bearer token's secret as a client sends it. Its description is redacted, so interpolating
/// one into a log line or an error message cannot leak it.
struct BearerToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    let secret: String

    init(_ secret: String) {
        self.secret = secret
    }

    var description: String { "<redacted bearer token>" }
    var debugDescription: String { description }

    /// What switchd stores and compares: the SHA-256 of the secret's UTF-8 bytes.
    var hash: TokenHash { TokenHash(bytes: Array(SHA256.hash(data: Array(secret.utf8)))) }

    /// Marks switchd's own tokens, so a leaked one is recognisable in a code search or a scanner.
    static let prefix = "fst_"
    /// Random bytes in a new token: 256 bits.
    static let randomByteCount = 32

    /// A new token: ``prefix`` then 32 bytes of the system's secure random source, base64url.
    static func generate() -> BearerToken {
        // One read of the secure random source (a `getrandom` per byte before).
        let bytes = SymmetricKey(size: SymmetricKeySize(bitCount: randomByteCount * 8)).withUnsafeBytes { Array($0) }
        let text = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return BearerToken(prefix + text)
    }

    /// The token of an `Authorization: Bearer <token>` header value; nil for another scheme or
    /// an empty token. The scheme is matched without regard to case (RFC 9110 §11.1).
    init?(authorization: String) {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let secret = parts[1].trimmingCharacters(in: .whitespaces)
        guard !secret.isEmpty else { return nil }
        self.init(secret)
    }
}

/// The SHA-256 of a token. Deliberately not `Equatable`: the only comparison is
/// ``matches(_:)``, which takes the same time whatever the bytes.
struct TokenHash: Sendable {
    let bytes: [UInt8]

    func matches(_ other: TokenHash) -> Bool {
        ConstantTime.equal(bytes, other.bytes)
    }
}

enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes, reading every byte of both whatever they hold, so
    /// the time taken does not tell where they first differ. Collections of different lengths
    /// differ (their lengths are not secret: every hash is 32 bytes).
    static func equal<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) {
            difference |= x ^ y
        }
        return difference == 0
    }
}
