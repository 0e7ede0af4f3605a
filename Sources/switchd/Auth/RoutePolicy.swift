import Hummingbird
import ScanContract

/// Which ``AccessRule`` guards each route, keyed by method and the route's path as the router
/// writes it (`GET /v1/floors/{id}`).
///
/// Fails closed: a routed method with no entry here (the 405 answers of
/// ``Router/allowOnly(_:on:)``, or a route someone forgot to add) needs the admin role, but on
/// a path that needs no token (`/healthz`), where it is open too: anyone may call that path, so
/// anyone may learn which methods it serves. A path no route matches needs a valid token of any
/// role and is then answered 404. Every route switchd serves has an entry (a test walks the
/// router to check).
struct RoutePolicy: Sendable {
    private var rules: [String: AccessRule]
    /// Paths with an open entry.
    private var openPaths: Set<String>

    init(_ rules: [String: AccessRule]) {
        self.rules = rules
        openPaths = Set(rules.filter(\.value.isOpen).keys.compactMap { key in key.split(separator: " ", maxSplits: 1).last.map(String.init) })
    }

    /// The rule for a request that matched the route `path` (nil when no route matched).
    func rule(for method: HTTPRequest.Method, path: String?) -> AccessRule {
        guard let path else { return Self.unrouted }
        return rules[Self.key(method, path)] ?? (openPaths.contains(path) ? .open : .admin)
    }

    /// Whether the table names this route; false for the fail-closed default.
    func hasEntry(for method: HTTPRequest.Method, path: String) -> Bool {
        rules[Self.key(method, path)] != nil
    }

    /// Paths no route matches: any valid token, so only a caller who may use switchd learns what
    /// does not exist.
    static let unrouted = AccessRule(roles: Set(TokenRole.allCases))

    /// Every route the table names, as ``key(_:_:)`` writes it.
    var keys: Set<String> { Set(rules.keys) }

    static func key(_ method: HTTPRequest.Method, _ path: String) -> String {
        "\(method.rawValue) \(path)"
    }

    /// switchd's routes and who may call them.
    static let standard = RoutePolicy([
        "GET /healthz": .open,

        "POST /v1/scanners": .admin,
        "GET /v1/scanners": .visit,
        "GET /v1/scanners/{id}": .readOwnScanner,
        "DELETE /v1/scanners/{id}": .admin,
        "GET /v1/scanners/{id}/switch": .readOwnScanner,
        "PATCH /v1/scanners/{id}/switch": .admin,
        "GET /v1/scanners/{id}/switch/stream": .readOwnScanner,
        "PUT /v1/scanners/{id}/counters": .reportOwnScanner,
        // A new Pi's one-time code (docs/raspberry-pi.md): made by an admin, redeemed with no
        // token (the code is the credential; EnrolmentController throttles wrong ones).
        "POST /v1/enrolments": .admin,
        "POST /v1/enrol": .open,
        // The seed system's switch changes scanning like the v1 PATCH: admin only, reads too.
        "GET /scanSwitch/{id}": .admin,
        "PATCH /scanSwitch/{id}": .admin,

        "POST /v1/floors": .admin,
        "GET /v1/floors": .visit,
        "GET /v1/floors/{id}": .visit,
        "PATCH /v1/floors/{id}": .admin,
        "DELETE /v1/floors/{id}": .admin,
        "PUT /v1/floors/{id}/plan": .admin,
        "GET /v1/floors/{id}/plan": .visit,
        "POST /v1/rooms": .admin,
        "GET /v1/rooms": .visit,
        "GET /v1/rooms/{id}": .visit,
        "PATCH /v1/rooms/{id}": .admin,
        "DELETE /v1/rooms/{id}": .admin,
        "POST /v1/rooms/{id}/clear": .admin,
        "GET /v1/rooms/{id}/outline": .visit,
        "PUT /v1/rooms/{id}/outline": .admin,
        "DELETE /v1/rooms/{id}/outline": .admin,
        "GET /v1/rooms/{id}/doors": .visit,
        "POST /v1/rooms/{id}/autolink": .admin,
        "PUT /v1/floors/{id}/georeference": .admin,
        "GET /v1/floors/{id}/georeference": .read,
        "DELETE /v1/floors/{id}/georeference": .admin,
        "GET /v1/floors/{id}/export.geojson": .read,
        "POST /v1/locations": .admin,
        "GET /v1/locations": .visit,
        // scannerd reads the location it is told to survey (the simulated radio places itself there).
        "GET /v1/locations/{id}": .readForScanners,
        "PATCH /v1/locations/{id}": .admin,
        "DELETE /v1/locations/{id}": .admin,
        "POST /v1/walks": .admin,
        "GET /v1/walks": .read,
        "GET /v1/walks/{id}": .read,
        "DELETE /v1/walks/{id}": .admin,
        "POST /v1/walks/{id}/arrived": .admin,
        "POST /v1/beacons": .admin,
        "GET /v1/beacons": .visit,
        "GET /v1/beacons/{id}": .visit,
        "PUT /v1/beacons/{id}": .admin,
        "DELETE /v1/beacons/{id}": .admin,
        "POST /v1/links": .admin,
        "GET /v1/links": .read,
        "GET /v1/links/{id}": .read,
        "DELETE /v1/links/{id}": .admin,
        "POST /v1/routes": .visit,

        "POST /v1/measurements": .measurementUpload,
        "GET /v1/measurements": .read,
        "GET /v1/measurements/stream": .read,
        "GET /v1/radiomap": .readForScanners,
        // Phones and integrators locate a scan; storing it (?store=true) is checked against the
        // body's scannerID like an upload.
        "POST /v1/locate": .locate,
        "GET /v1/emitters": .read,
        "POST /v1/positions": .upload,
        "GET /v1/positions": .read,
        "GET /v1/positions/latest": .visit,
        "GET /v1/positions/stream": .visit,
        "GET /v1/events": .read,
        "GET /v1/events/stream": .read,
        // Every feed in one stream (positions, tag positions, readings, switches): as the feeds'
        // own streams, read only; a visitor token only positions (LiveFeedController).
        "GET /v1/stream": .visit,

        "POST /v1/webhooks": .admin,
        "GET /v1/webhooks": .admin,
        "DELETE /v1/webhooks/{id}": .admin,
        "GET /v1/webhooks/{id}/deliveries": .admin,
        "GET /v1/integrations/webhooks": .admin,

        "POST /v1/tags": .admin,
        // A fixed scanner in track mode reads which tags to forward.
        "GET /v1/tags": .readForScanners,
        "GET /v1/tags/{id}": .read,
        "PATCH /v1/tags/{id}": .admin,
        "DELETE /v1/tags/{id}": .admin,
        "GET /v1/tags/{id}/positions": .read,
        "GET /v1/tags/{id}/positions/latest": .visit,
        "GET /v1/tags/{id}/positions/stream": .visit,
        "GET /v1/tags/{id}/sightings": .read,
        "GET /v1/tags/{id}/events": .read,
        "GET /v1/tags/{id}/events/stream": .read,
        "POST /v1/sightings": .upload,
        "GET /v1/scanners/{id}/placement": .readOwnScanner,
        "PUT /v1/scanners/{id}/placement": .admin,
        "DELETE /v1/scanners/{id}/placement": .admin,
        "GET /v1/placements": .read,

        "POST /v1/tokens": .admin,
        "GET /v1/tokens": .admin,
        "DELETE /v1/tokens/{id}": .admin,
        "GET /v1/integrations/mqtt": .admin,

        // Counts and recent activity name scanners: the admin's.
        "GET /v1/dashboard": .admin,

        // Prometheus metrics: a scraper is given a reader token.
        "GET /metrics": .read,
    ])
}
