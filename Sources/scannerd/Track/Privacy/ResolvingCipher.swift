import CLibCrypto
import ScanContract

/// One Identity Resolving Key's AES-128 block function, for the Core specification's `ah()`:
/// OpenSSL's libcrypto (EVP, AES-128-ECB without padding, which encrypts each 16-byte block on
/// its own), with the key schedule made once per key. Not thread-safe: one owner at a time.
final class ResolvingCipher {
    private let context: OpaquePointer

    /// Nil when libcrypto cannot make a context or take the key (out of memory).
    init?(key: IdentityResolvingKey) {
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        let ready = key.bytes.withUnsafeBufferPointer { bytes in
            EVP_EncryptInit_ex(context, EVP_aes_128_ecb(), nil, bytes.baseAddress, nil) == 1
                && EVP_CIPHER_CTX_set_padding(context, 0) == 1
        }
        guard ready else {
            EVP_CIPHER_CTX_free(context)
            return nil
        }
        self.context = context
    }

    deinit { EVP_CIPHER_CTX_free(context) }

    /// `ah(k, r)` (Core Vol 3 Part H §2.2.2): AES-128 under the key of `r` (24 bits) padded with
    /// 104 zero bits in front, reduced to its 24 least significant bits. Nil when libcrypto fails.
    func ah(_ prand: UInt32) -> UInt32? {
        // r' = padding || r, most significant byte first, as e() takes its plaintext.
        var block: (UInt64, UInt64) = (0, 0)
        var out: (UInt64, UInt64) = (0, 0)
        let ok = withUnsafeMutableBytes(of: &block) { plain in
            plain[13] = UInt8(truncatingIfNeeded: prand >> 16)
            plain[14] = UInt8(truncatingIfNeeded: prand >> 8)
            plain[15] = UInt8(truncatingIfNeeded: prand)
            return withUnsafeMutableBytes(of: &out) { cipher in
                var written: Int32 = 0
                return EVP_EncryptUpdate(
                    context, cipher.baseAddress?.assumingMemoryBound(to: UInt8.self), &written,
                    plain.baseAddress?.assumingMemoryBound(to: UInt8.self), 16
                ) == 1 && written == 16
            }
        }
        guard ok else { return nil }
        return withUnsafeBytes(of: &out) { UInt32($0[13]) << 16 | UInt32($0[14]) << 8 | UInt32($0[15]) }
    }
}
