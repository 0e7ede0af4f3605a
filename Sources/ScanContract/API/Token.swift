#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a bearer token may do on switchd (the v1 `role` field).
///
/// - `admin`: everything: the survey, switches, deletions, token management and every read.
/// - `scanner`: bound to one scanner ID: uploads that scanner's measurements and positions,
///   reads its switch, the radio map and the locations it surveys.
/// - `reader`: the feeds and every read.
/// - `visitor`: what the visitor page shows (a link handed to the public): scanners' and tags'
///   positions, the floors and their plans, rooms, routes, locations and items (beacons); no
///   readings, radio map, metrics, history or presence events.
public enum TokenRole: String, Codable, CaseIterable, Hashable, Sendable {
    case admin
    case scanner
    case reader
    case visitor
}

/// `POST /v1/tokens` (and `switchd token issue`): a token to issue.
public struct NewToken: Codable, Hashable, Sendable {
    /// A label for people; defaults to the role (and scanner ID).
    public var name: String?
    public var role: TokenRole
    /// Required for `scanner` tokens, refused for the others.
    public var scannerID: ScannerID?

    public init(name: String? = nil, role: TokenRole, scannerID: ScannerID? = nil) {
        self.name = name
        self.role = role
        self.scannerID = scannerID
    }

    /// Checks the name and that exactly `scanner` tokens name a scanner.
    public func validate() throws(ValidationError) {
        if let name { try validateName(name, field: "name") }
        switch (role, scannerID) {
        case (.scanner, nil):
            throw ValidationError(field: "scannerID", reason: "a scanner token must name the scanner it speaks for")
        case (.admin, .some), (.reader, .some), (.visitor, .some):
            throw ValidationError(field: "scannerID", reason: "only scanner tokens are bound to a scanner, not \(role.rawValue) tokens")
        default:
            return
        }
    }

    /// The name stored when none is given: `reader`, or `scanner default`.
    public var effectiveName: String {
        name ?? ([role.rawValue] + [scannerID?.rawValue].compactMap { $0 }).joined(separator: " ")
    }
}

/// A token as switchd lists it: never the secret, which is stored only as a hash.
public struct TokenInfo: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var role: TokenRole
    public var scannerID: ScannerID?
    public var created: Date
    /// When it was revoked; a revoked token is refused with 401.
    public var revoked: Date?

    public init(id: Int64, name: String, role: TokenRole, scannerID: ScannerID?, created: Date, revoked: Date?) {
        self.id = id
        self.name = name
        self.role = role
        self.scannerID = scannerID
        self.created = created
        self.revoked = revoked
    }
}

/// The answer to `POST /v1/tokens`: the token's secret, shown this once, and its listing.
public struct IssuedToken: Codable, Hashable, Sendable {
    /// The bearer token to send as `Authorization: Bearer <token>`.
    public var token: String
    public var info: TokenInfo

    public init(token: String, info: TokenInfo) {
        self.token = token
        self.info = info
    }
}
