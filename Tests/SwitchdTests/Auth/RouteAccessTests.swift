import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Every route × every role, over HTTP, against the roles the issue asks for (written out here,
/// independently of ``RoutePolicy``). The routes come from the router itself, so a route added
/// without a line here fails the test.
@Suite("Access: every route × every role", .timeLimit(.minutes(2)))
struct RouteAccessTests {
    /// Who may call each route. `scanner` means a scanner token for any scanner (uploads check
    /// the body's scanner elsewhere); `own-scanner` a scanner token for the scanner in the path.
    static let expected: [String: Set<String>] = [
        "GET /healthz": ["anyone"],
        "POST /v1/scanners": ["admin"],
        "GET /v1/scanners": ["admin", "reader", "visitor"],
        "GET /v1/scanners/{id}": ["admin", "reader", "own-scanner"],
        "DELETE /v1/scanners/{id}": ["admin"],
        "PATCH /v1/scanners/{id}": ["admin"],
        "GET /v1/scanners/{id}/switch": ["admin", "reader", "own-scanner"],
        "PATCH /v1/scanners/{id}/switch": ["admin"],
        "GET /v1/scanners/{id}/switch/stream": ["admin", "reader", "own-scanner"],
        "PUT /v1/scanners/{id}/counters": ["admin", "own-scanner"],
        "POST /v1/enrolments": ["admin"],
        "POST /v1/enrol": ["anyone"],
        "GET /metrics": ["admin", "reader"],
        "GET /scanSwitch/{id}": ["admin"],
        "PATCH /scanSwitch/{id}": ["admin"],
        "POST /v1/floors": ["admin"],
        "GET /v1/floors": ["admin", "reader", "visitor"],
        "GET /v1/floors/{id}": ["admin", "reader", "visitor"],
        "PATCH /v1/floors/{id}": ["admin"],
        "DELETE /v1/floors/{id}": ["admin"],
        "PUT /v1/floors/{id}/plan": ["admin"],
        "GET /v1/floors/{id}/plan": ["admin", "reader", "visitor"],
        "POST /v1/rooms": ["admin"],
        "GET /v1/rooms": ["admin", "reader", "visitor"],
        "GET /v1/rooms/{id}": ["admin", "reader", "visitor"],
        "PATCH /v1/rooms/{id}": ["admin"],
        "DELETE /v1/rooms/{id}": ["admin"],
        "POST /v1/rooms/{id}/clear": ["admin"],
        "GET /v1/rooms/{id}/outline": ["admin", "reader", "visitor"],
        "PUT /v1/rooms/{id}/outline": ["admin"],
        "DELETE /v1/rooms/{id}/outline": ["admin"],
        "POST /v1/locations": ["admin"],
        "GET /v1/locations": ["admin", "reader", "visitor"],
        "GET /v1/locations/{id}": ["admin", "reader", "scanner"],
        "DELETE /v1/locations/{id}": ["admin"],
        "POST /v1/walks": ["admin"],
        "GET /v1/walks": ["admin", "reader"],
        "GET /v1/walks/{id}": ["admin", "reader"],
        "DELETE /v1/walks/{id}": ["admin"],
        "POST /v1/walks/{id}/arrived": ["admin"],
        "POST /v1/beacons": ["admin"],
        "GET /v1/beacons": ["admin", "reader", "visitor"],
        "GET /v1/beacons/{id}": ["admin", "reader", "visitor"],
        "PUT /v1/beacons/{id}": ["admin"],
        "DELETE /v1/beacons/{id}": ["admin"],
        "POST /v1/links": ["admin"],
        "GET /v1/links": ["admin", "reader"],
        "GET /v1/links/{id}": ["admin", "reader"],
        "DELETE /v1/links/{id}": ["admin"],
        "POST /v1/routes": ["admin", "reader", "visitor"],
        "POST /v1/measurements": ["admin", "scanner"],
        "GET /v1/measurements": ["admin", "reader"],
        "GET /v1/measurements/stream": ["admin", "reader"],
        "GET /v1/radiomap": ["admin", "reader", "scanner"],
        "POST /v1/positions": ["admin", "scanner"],
        "GET /v1/positions": ["admin", "reader"],
        "GET /v1/positions/latest": ["admin", "reader", "visitor"],
        "GET /v1/positions/stream": ["admin", "reader", "visitor"],
        "GET /v1/events": ["admin", "reader"],
        "GET /v1/events/stream": ["admin", "reader"],
        "GET /v1/stream": ["admin", "reader", "visitor"],
        "POST /v1/webhooks": ["admin"],
        "GET /v1/webhooks": ["admin"],
        "DELETE /v1/webhooks/{id}": ["admin"],
        "GET /v1/webhooks/{id}/deliveries": ["admin"],
        "GET /v1/integrations/webhooks": ["admin"],
        "POST /v1/tags": ["admin"],
        "GET /v1/tags": ["admin", "reader", "scanner"],
        "GET /v1/tags/{id}": ["admin", "reader"],
        "PATCH /v1/tags/{id}": ["admin"],
        "DELETE /v1/tags/{id}": ["admin"],
        "POST /v1/tags/{id}/references": ["admin"],
        "GET /v1/tags/{id}/references": ["admin", "reader"],
        "GET /v1/tags/{id}/references/{reference}": ["admin", "reader"],
        "DELETE /v1/tags/{id}/references/{reference}": ["admin"],
        "GET /v1/tags/{id}/positions": ["admin", "reader"],
        "GET /v1/tags/{id}/positions/latest": ["admin", "reader", "visitor"],
        "GET /v1/tags/{id}/positions/stream": ["admin", "reader", "visitor"],
        "GET /v1/tags/{id}/sightings": ["admin", "reader"],
        "GET /v1/tags/{id}/events": ["admin", "reader"],
        "GET /v1/tags/{id}/events/stream": ["admin", "reader"],
        "POST /v1/sightings": ["admin", "scanner"],
        "GET /v1/scanners/{id}/placement": ["admin", "reader", "own-scanner"],
        "PUT /v1/scanners/{id}/placement": ["admin"],
        "DELETE /v1/scanners/{id}/placement": ["admin"],
        "GET /v1/placements": ["admin", "reader"],
        "POST /v1/tokens": ["admin"],
        "GET /v1/tokens": ["admin"],
        "DELETE /v1/tokens/{id}": ["admin"],
        "GET /v1/dashboard": ["admin"],
        "GET /v1/integrations/mqtt": ["admin"],
        "PATCH /v1/locations/{id}": ["admin"],
        "GET /v1/rooms/{id}/doors": ["admin", "reader", "visitor"],
        "POST /v1/rooms/{id}/autolink": ["admin"],
        "PUT /v1/floors/{id}/georeference": ["admin"],
        "GET /v1/floors/{id}/georeference": ["admin", "reader"],
        "DELETE /v1/floors/{id}/georeference": ["admin"],
        "GET /v1/floors/{id}/export.geojson": ["admin", "reader"],
        "POST /v1/locate": ["admin", "reader", "scanner"],
        "GET /v1/emitters": ["admin", "reader"],
    ]

    /// The callers tried on every route.
    enum Caller: String, CaseIterable {
        case nobody, admin, reader, visitor, ownScanner, otherScanner

        /// Whether a route open to `allowed` lets this caller through.
        func isAllowed(by allowed: Set<String>) -> Bool {
            if allowed.contains("anyone") { return true }
            switch self {
            case .nobody: return false
            case .admin: return allowed.contains("admin")
            case .reader: return allowed.contains("reader")
            case .visitor: return allowed.contains("visitor")
            case .ownScanner: return allowed.contains("scanner") || allowed.contains("own-scanner")
            case .otherScanner: return allowed.contains("scanner")
            }
        }
    }

    struct Route: CustomStringConvertible {
        var method: HTTPRequest.Method
        var path: String
        var key: String { "\(method.rawValue) \(path)" }
        var description: String { key }

        /// The path with `{id}` filled: scanner `default` under /v1/scanners, else 1 (and any other
        /// parameter, such as `{reference}`, 1). Deleting a
        /// scanner names one never registered: deleting `default` would revoke the own-scanner token.
        var probe: String {
            if method == .delete, path == "/v1/scanners/{id}" { return "/v1/scanners/never-registered" }
            return path.replacingOccurrences(of: "{id}", with: path.hasPrefix("/v1/scanners/") ? ScannerID.default.rawValue : "1")
                .replacingOccurrences(of: "{reference}", with: "1")
        }
    }

    static func routes() throws -> [Route] {
        let router = buildRouter(SwitchdDependencies(settings: Settings(), database: try .inMemory(), logger: Logger(label: "test")))
        return router.routes.map { Route(method: $0.method, path: $0.path.description) }
    }

    @Test func everyRouteAnswersEachRoleAsTheTableSays() async throws {
        let database = try AppDatabase.inMemory()
        // Token 1 is a spare: DELETE /v1/tokens/1 revokes it, not one the test goes on using.
        _ = try await issueToken(database, .reader, name: "spare")
        let tokens: [Caller: String] = [
            .admin: try await issueToken(database, .admin),
            .reader: try await issueToken(database, .reader),
            .visitor: try await issueToken(database, .visitor),
            .ownScanner: try await issueToken(database, .scanner, scannerID: .default),
            .otherScanner: try await issueToken(database, .scanner, scannerID: try ScannerID("pi-elsewhere")),
        ]
        let routes = try Self.routes()
        #expect(routes.count > Self.expected.count, "the router listed its routes, 405 answers included: \(routes.count)")
        let (failures, checked) = try await makeUnauthenticatedApp(database).test(.live) { client in
            let port = try #require(client.port)
            var failures: [String] = []
            var checked = Set<String>()
            for route in routes {
                let allowed = Self.expected[route.key]
                for caller in Caller.allCases {
                    let status = try await Self.status(of: route, as: tokens[caller], client: client, port: port)
                    let verdict: String?
                    if let allowed {
                        checked.insert(route.key)
                        if caller.isAllowed(by: allowed) {
                            verdict = [401, 403, 405].contains(status) ? "should be let through, got \(status)" : nil
                        } else {
                            let wanted = caller == .nobody ? 401 : 403
                            verdict = status == wanted ? nil : "should get \(wanted), got \(status)"
                        }
                    } else {
                        // Not in the table: it must be one of the 405 answers, for admins only;
                        // on a path that needs no token (/healthz, /v1/enrol), for anyone
                        // (schemathesis's unsupported-method check found `TRACE /healthz` 403 to a reader).
                        let onOpenPath = Self.expected.contains { $0.key.hasSuffix(" \(route.path)") && $0.value == ["anyone"] }
                        let wanted = onOpenPath || caller == .admin ? 405 : caller == .nobody ? 401 : 403
                        verdict = status == wanted ? nil : "is in no line of the table; \(caller) should get \(wanted) (a 405 answer), got \(status)"
                    }
                    if let verdict { failures.append("\(route) as \(caller): \(verdict)") }
                }
            }
            return (failures, checked)
        }
        #expect(failures.isEmpty, "\(failures.count) wrong answers:\n\(failures.joined(separator: "\n"))")
        let unrouted = Set(Self.expected.keys).subtracting(checked)
        #expect(unrouted.isEmpty, "lines of the table no route serves: \(unrouted.sorted())")
    }

    /// The status a request to `route` gets; a live feed's is read from its first line, as its
    /// body never ends.
    static func status(of route: Route, as token: String?, client: some TestClientProtocol, port: Int) async throws -> Int {
        let headers: HTTPFields = token.map(bearer) ?? [:]
        if route.method == .get, route.path.hasSuffix("/stream") {
            var raw: [String: String] = [:]
            for field in headers { raw[field.name.rawName] = field.value }
            return try await withEventStream(port: port, path: route.probe, headers: raw) { reader in
                try await reader.status() ?? 0
            }
        }
        // HEAD, OPTIONS and TRACE requests carry no body (a TRACE must not).
        let body = [.head, .options, .trace].contains(route.method) ? nil : ByteBuffer(string: "{}")
        return try await client.execute(uri: route.probe, method: route.method, headers: headers, body: body) {
            Int($0.status.code)
        }
    }

    /// The table the middleware enforces, as the controllers' registrations build it, names
    /// every route of the one above and nothing else; anything else fails closed.
    @Test func thePolicyNamesEveryRouteOfTheTable() throws {
        let policy = RoutePolicy()
        _ = buildRouter(SwitchdDependencies(settings: Settings(), database: try .inMemory(), logger: Logger(label: "test")), policy: policy)
        for key in Self.expected.keys {
            let parts = key.split(separator: " ", maxSplits: 1)
            #expect(policy.hasEntry(for: HTTPRequest.Method(String(parts[0]))!, path: String(parts[1])), "\(key)")
        }
        #expect(policy.keys == Set(Self.expected.keys), "rules for routes the table above does not have: \(policy.keys.subtracting(Self.expected.keys).sorted())")
        #expect(policy.rule(for: .get, path: nil) == RoutePolicy.unrouted)
        #expect(policy.rule(for: .put, path: "/v1/floors") == .admin, "a method without a line fails closed")
        #expect(policy.rule(for: .post, path: "/healthz") == .open, "on an open path, so are its 405 answers")
        #expect(policy.rule(for: .get, path: "/healthz") == .open)
    }
}
