import Hummingbird
import Logging

/// On PostgreSQL, answers 501 `not_on_postgres` for every route whose store methods still run on
/// SQLite only (docs/scale-out.md, "What runs on PostgreSQL today"), before its handler runs, so
/// such a route changes nothing. Routes in ``served`` pass, and so do the 405 answers of paths
/// that have one (they have no entry in ``RoutePolicy``). Added only when the store runs on
/// PostgreSQL.
struct PostgresRouteGate: RouterMiddleware {
    let policy: RoutePolicy

    /// The fleet's path: health and metrics, tokens, scanners, switches (read, long-poll, change,
    /// stream; the seed system's too), scanner counters, ingest and the measurement feed.
    static let served: Set<String> = [
        "GET /healthz", "GET /metrics",
        "POST /v1/tokens", "GET /v1/tokens", "DELETE /v1/tokens/{id}",
        "POST /v1/scanners", "GET /v1/scanners", "GET /v1/scanners/{id}",
        "GET /v1/scanners/{id}/switch", "PATCH /v1/scanners/{id}/switch", "GET /v1/scanners/{id}/switch/stream",
        "GET /scanSwitch/{id}", "PATCH /scanSwitch/{id}",
        "PUT /v1/scanners/{id}/counters",
        "POST /v1/measurements", "GET /v1/measurements", "GET /v1/measurements/stream",
    ]

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        if let path = context.endpointPath, policy.hasEntry(for: request.method, path: path),
           !Self.served.contains(RoutePolicy.key(request.method, path)) {
            throw APIError.notOnPostgres(request.method, path)
        }
        return try await next(request, context)
    }

    /// Says once, at start, what this instance serves on PostgreSQL.
    static func logServed(_ logger: Logger) {
        logger.notice("On PostgreSQL: only the fleet's routes are served yet; every other route answers 501 not_on_postgres (docs/scale-out.md)", metadata: [
            "served": "\(served.sorted().joined(separator: ", "))",
        ])
    }
}

extension APIError {
    /// 501: the route (`GET /v1/floors`, say) does not run on PostgreSQL yet.
    static func notOnPostgres(_ method: HTTPRequest.Method, _ path: String) -> APIError {
        APIError(
            .notImplemented, code: "not_on_postgres",
            message: "\(method.rawValue) \(path) is not available on PostgreSQL yet: it runs on SQLite only so far (docs/scale-out.md says what runs on PostgreSQL)"
        )
    }
}
