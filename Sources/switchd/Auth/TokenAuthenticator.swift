import SwitchdStore

/// Finds the caller a presented token names, reading the tokens as they are stored now, so a
/// token revoked with `switchd token revoke` is refused from the next request on.
struct TokenAuthenticator: Sendable {
    let database: AppDatabase

    /// The principal of the active token matching `token`, or nil. The presented token's hash is
    /// compared with every active token's in constant time (``TokenHash/matches(_:)``), and all of
    /// them are compared, so the time taken says nothing about which stored hash came close.
    ///
    /// - Throws: when the database cannot be read.
    func principal(for token: BearerToken) async throws -> Principal? {
        let presented = token.hash
        var found: Principal?
        for candidate in try await database.activeTokens() where TokenHash(bytes: candidate.hash).matches(presented) {
            let info = candidate.info
            found = Principal(tokenID: info.id, name: info.name, role: info.role, scannerID: info.scannerID)
        }
        return found
    }
}
