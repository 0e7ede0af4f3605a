import ScanContract

/// Who may call one route.
struct AccessRule: Sendable, Equatable {
    /// How a `scanner` token is tied to the scanner a request is about.
    enum ScannerBinding: Sendable, Equatable {
        /// The route is about no scanner in particular (the radio map, a location).
        case unbound
        /// The route's `{id}` path parameter is a scanner ID; a scanner token must carry that ID.
        case pathParameter
        /// The body names the scanner (`scannerID`); the controller checks it against the token
        /// with ``AppRequestContext/requireMayActFor(_:)`` once the body is decoded.
        case body
    }

    /// Roles that may call the route; empty with ``isOpen`` for routes that need no token.
    var roles: Set<TokenRole>
    var scannerBinding: ScannerBinding = .unbound
    /// No token needed at all (`/healthz`).
    var isOpen = false
    /// The route's handler checks the token again in the transaction that stores the request's
    /// data, and refuses with 401 when it was revoked meanwhile; so a token found active by an
    /// earlier request may let this one in without reading the token table first
    /// (``RememberedTokens``).
    var checksTokenWhenStoring = false

    /// `/healthz`: no token.
    static let open = AccessRule(roles: [], isOpen: true)
    /// Survey data, switches, deletions, tokens.
    static let admin = AccessRule(roles: [.admin])
    /// Reads and feeds.
    static let read = AccessRule(roles: [.admin, .reader])
    /// What the visitor page reads: the plan, rooms, routes, items and positions (docs/auth.md).
    static let visit = AccessRule(roles: [.admin, .reader, .visitor])
    /// Reads a scanner needs as well: the radio map, the location it surveys.
    static let readForScanners = AccessRule(roles: [.admin, .reader, .scanner])
    /// A scanner, its switch, read or followed: a scanner token only for its own scanner ID.
    static let readOwnScanner = AccessRule(roles: [.admin, .reader, .scanner], scannerBinding: .pathParameter)
    /// A scanner's own report about itself (its counters): admin, or a scanner token for the
    /// scanner in the path.
    static let reportOwnScanner = AccessRule(roles: [.admin, .scanner], scannerBinding: .pathParameter)
    /// `POST /v1/locate`: readers and scanners (and admins) locate; the controller checks the
    /// body's scanner ID when the position is to be stored.
    static let locate = AccessRule(roles: [.admin, .reader, .scanner], scannerBinding: .body)
    /// Uploads of measurements and positions: a scanner token only for its own ID (in the body).
    static let upload = AccessRule(roles: [.admin, .scanner], scannerBinding: .body)
    /// `POST /v1/measurements`: as ``upload``; the ingest transaction checks the token again
    /// (``checksTokenWhenStoring``), sparing each batch a read of the token table.
    static let measurementUpload = AccessRule(roles: [.admin, .scanner], scannerBinding: .body, checksTokenWhenStoring: true)

    /// Whether `principal` may call the route; `pathScanner` is the route's `{id}` when
    /// ``scannerBinding`` is ``ScannerBinding/pathParameter``. A `.body` binding passes here and
    /// is checked by the controller.
    func allows(_ principal: Principal, pathScanner: String?) -> Bool {
        guard roles.contains(principal.role) else { return false }
        guard principal.role == .scanner, scannerBinding == .pathParameter else { return true }
        return pathScanner != nil && principal.scannerID?.rawValue == pathScanner
    }
}
