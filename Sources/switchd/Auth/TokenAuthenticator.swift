import SwitchdStore

/// Finds the caller a presented token names, reading the tokens as they are stored now, so a
/// token revoked with `switchd token revoke` is refused from the next request on.
struct TokenAuthenticator: Sendable {
    let database: AppDatabase
    /// Tokens found active before; only a route that checks its token again where it stores
    /// uses them (``principal(for:acceptingRemembered:)``).
    var remembered = RememberedTokens()

    /// The principal of the active token matching `token`, or nil. The presented token's SHA-256
    /// is looked up as a key (the hash column's unique index), so a check costs the same with ten
    /// tokens stored or a hundred thousand. What the lookup's timing could reveal is about the
    /// hash, which an attacker cannot steer towards a stored one without knowing its secret; the
    /// row found is still compared in constant time (``TokenHash/matches(_:)``).
    ///
    /// With `acceptingRemembered`, a token found active before is taken without reading the
    /// database: only for routes that check the token again in the transaction that stores
    /// (``AccessRule/checksTokenWhenStoring``). A token never found active is always read, so an
    /// unknown token is refused before its request's body is read.
    ///
    /// - Throws: when the database cannot be read.
    func principal(for token: BearerToken, acceptingRemembered: Bool = false) async throws -> Principal? {
        try await authenticate(token, acceptingRemembered: acceptingRemembered)?.principal
    }

    /// As ``principal(for:acceptingRemembered:)``, and whether the principal was taken from memory
    /// rather than read now.
    func authenticate(_ token: BearerToken, acceptingRemembered: Bool) async throws -> (principal: Principal, fromMemory: Bool)? {
        let presented = token.hash
        if acceptingRemembered, let principal = remembered.principal(hash: presented.bytes) {
            return (principal, true)
        }
        guard let candidate = try await database.activeToken(hash: presented.bytes),
              TokenHash(bytes: candidate.hash).matches(presented) else {
            remembered.forget(hash: presented.bytes)
            return nil
        }
        let info = candidate.info
        let principal = Principal(tokenID: info.id, name: info.name, role: info.role, scannerID: info.scannerID)
        remembered.remember(principal, hash: presented.bytes)
        return (principal, false)
    }

    /// Forgets `token` after a write found it revoked.
    func forget(_ token: BearerToken) {
        remembered.forget(hash: token.hash.bytes)
    }
}
