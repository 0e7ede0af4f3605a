import ScanContract

/// The caller a request's bearer token names: set on the request context by ``AuthMiddleware``.
struct Principal: Sendable, Equatable {
    /// The token's row ID (never the token itself).
    var tokenID: Int64
    var name: String
    var role: TokenRole
    /// The scanner a `scanner` token speaks for; nil for the other roles.
    var scannerID: ScannerID?

    /// Whether this caller may act for `scanner`: admins for any, a scanner token for its own
    /// scanner only, readers and visitors for none.
    func mayActFor(_ scanner: ScannerID) -> Bool {
        switch role {
        case .admin: true
        case .scanner: scannerID == scanner
        case .reader, .visitor: false
        }
    }
}
