import Crypto
import Foundation
import ScanContract

/// What switchd does with a phone's Identity Resolving Key (`irk` tags): names it by a one-way
/// fingerprint (the first 8 bytes of SHA-256 over a label and the key, as 16 hex digits: the
/// tag's identity in the store and every answer), and seals it for the store with AES-GCM under
/// a 256-bit key of switchd's own (``TagKeyFile``, in the state directory), so that a database
/// dump alone does not give the keys away. Sealed keys are opened only for a listening scanner's
/// switch answer.
struct TagKeySealer: Sendable {
    /// The sealing key's bytes (`SymmetricKey` is not `Sendable`; one is made per use).
    private let keyBytes: [UInt8]

    init(key: SymmetricKey) {
        keyBytes = key.withUnsafeBytes { Array($0) }
    }

    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// A sealer whose key lives only in this process: for tests, and for a switchd whose keys
    /// need not outlive it.
    static func ephemeral() -> TagKeySealer { TagKeySealer(key: SymmetricKey(size: .bits256)) }

    /// 16 hex digits that name `key` in public; the same on every switchd.
    static func fingerprint(of key: IdentityResolvingKey) -> String {
        var hash = SHA256()
        hash.update(data: Array("floorscan irk fingerprint v1".utf8))
        hash.update(data: key.bytes)
        return hash.finalize().prefix(IRKIdentity.fingerprintBytes).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// `identity` ready to store: an `irk` identity read from a request gets its fingerprint, and
    /// its key sealed (base64 of AES-GCM's combined nonce, ciphertext and tag) comes back beside
    /// it; any other identity comes back as it is, with no sealed key.
    ///
    /// - Throws: ``ValidationError`` naming `identity.fingerprint` when an `irk` identity has no key.
    func sealing(_ identity: TagIdentity) throws -> (identity: TagIdentity, sealedKey: String?) {
        guard case .irk(let irk) = identity else { return (identity, nil) }
        guard let secret = irk.key else {
            throw ValidationError(field: "identity.key", reason: "is required for an irk identity (16 bytes as 32 hex digits or base64)")
        }
        let sealed = try AES.GCM.seal(secret.bytes, using: key)
        guard let combined = sealed.combined else { throw TagKeyError.unsealable }
        return (.irk(IRKIdentity(fingerprint: Self.fingerprint(of: secret))), combined.base64EncodedString())
    }

    /// The keys of `sealed` (fingerprint → sealed text) that open under this sealer's key and
    /// match their fingerprint; the others are left out (a key file replaced since), and counted.
    func opening(_ sealed: [String: String]) -> (keys: [String: IdentityResolvingKey], unopened: Int) {
        var keys: [String: IdentityResolvingKey] = [:]
        var unopened = 0
        for (fingerprint, text) in sealed {
            guard let data = Data(base64Encoded: text), let box = try? AES.GCM.SealedBox(combined: data),
                let bytes = try? AES.GCM.open(box, using: key), bytes.count == 16
            else {
                unopened += 1
                continue
            }
            let secret = IdentityResolvingKey(bytes: Array(bytes))
            guard Self.fingerprint(of: secret) == fingerprint else {
                unopened += 1
                continue
            }
            keys[fingerprint] = secret
        }
        return (keys, unopened)
    }
}

enum TagKeyError: Error, CustomStringConvertible {
    case unsealable

    var description: String { "AES-GCM gave no combined sealed box" }
}
