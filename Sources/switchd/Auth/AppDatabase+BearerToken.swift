import Foundation
import ScanContract
import SwitchdStore

extension AppDatabase {
    /// Stores a new token under the hash of `token` (the secret itself is never stored).
    ///
    /// - Throws: as ``AppDatabase/issueToken(_:hash:at:)``.
    func issueToken(_ new: NewToken, token: BearerToken, at now: Date) async throws -> TokenInfo {
        try await issueToken(new, hash: token.hash.bytes, at: now)
    }

    /// The stored token whose hash is `token`'s, or nil.
    func tokenInfo(for token: BearerToken) async throws -> TokenInfo? {
        try await tokenInfo(hash: token.hash.bytes)
    }
}
