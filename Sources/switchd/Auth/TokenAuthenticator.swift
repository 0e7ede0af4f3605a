import SwitchdStore

/// Finds the caller a presented token names, reading the tokens as they are stored now, so a
/// token revoked with `switchd token revoke` is refused from the next request on.
struct TokenAuthenticator: Sendable {
    let database: AppDatabase

    /// The principal of the active token matching `token`, or nil. The presented token's SHA-256
    /// is looked up as a key (the hash column's unique index), so a check costs the same with ten
    /// tokens stored or a hundred thousand. What the lookup's timing could reveal is about the
    /// hash, which an attacker cannot steer towards a stored one without knowing its secret; the
    /// row found is still compared in constant time (``TokenHash/matches(_:)``).
    ///
    /// - Throws: when the database cannot be read.
    func principal(for token: BearerToken) async throws -> Principal? {
        let presented = token.hash
        guard let candidate = try await database.activeToken(hash: presented.bytes),
              TokenHash(bytes: candidate.hash).matches(presented) else { return nil }
        let info = candidate.info
        return Principal(tokenID: info.id, name: info.name, role: info.role, scannerID: info.scannerID)
    }
}
