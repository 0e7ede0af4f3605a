import Hummingbird
import ScanContract
import Synchronization

/// Which ``AccessRule`` guards each route, keyed by method and the route's path as the router
/// writes it (`GET /v1/floors/{id}`): filled by the controllers as they register their routes
/// (``Routes``), before switchd serves its first request, and read by ``AuthMiddleware``.
///
/// Fails closed: a routed method with no entry here (the 405 answers of
/// ``Router/allowOnly(_:on:)``) needs the admin role, but on a path that needs no token
/// (`/healthz`), where it is open too: anyone may call that path, so anyone may learn which
/// methods it serves. A path no route matches needs a valid token of any role and is then
/// answered 404. `RouteAccessTests` checks every route against a table of its own.
final class RoutePolicy: Sendable {
    private struct Table {
        var rules: [String: AccessRule] = [:]
        /// Paths with an open entry.
        var openPaths: Set<String> = []
    }

    private let table = Mutex(Table())

    init() {}

    /// Records the rule of one route; a route registered twice is a programming error.
    func add(_ method: HTTPRequest.Method, _ path: String, _ rule: AccessRule) {
        table.withLock { table in
            let key = Self.key(method, path)
            precondition(table.rules[key] == nil, "the route \(key) is registered twice")
            table.rules[key] = rule
            if rule.isOpen { table.openPaths.insert(path) }
        }
    }

    /// The rule for a request that matched the route `path` (nil when no route matched).
    func rule(for method: HTTPRequest.Method, path: String?) -> AccessRule {
        guard let path else { return Self.unrouted }
        return table.withLock { table in
            table.rules[Self.key(method, path)] ?? (table.openPaths.contains(path) ? .open : .admin)
        }
    }

    /// Whether the table names this route; false for the fail-closed default.
    func hasEntry(for method: HTTPRequest.Method, path: String) -> Bool {
        table.withLock { $0.rules[Self.key(method, path)] != nil }
    }

    /// Paths no route matches: any valid token, so only a caller who may use switchd learns what
    /// does not exist.
    static let unrouted = AccessRule(roles: Set(TokenRole.allCases))

    /// Every route the table names, as ``key(_:_:)`` writes it.
    var keys: Set<String> { table.withLock { Set($0.rules.keys) } }

    static func key(_ method: HTTPRequest.Method, _ path: String) -> String {
        "\(method.rawValue) \(path)"
    }
}
