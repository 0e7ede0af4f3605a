import Hummingbird
import Logging

/// On PostgreSQL, answers 501 `not_on_postgres` for every route whose store methods still run on
/// SQLite only (docs/scale-out.md, "What runs on PostgreSQL today"), before its handler runs, so
/// such a route changes nothing. Every route of ``RoutePolicy/standard`` is served today; the gate
/// stays so that a route added later answers 501 on PostgreSQL until it is listed here. Routes in ``served`` pass, and so do the 405 answers of paths
/// that have one (they have no entry in ``RoutePolicy``). Added only when the store runs on
/// PostgreSQL.
struct PostgresRouteGate: RouterMiddleware {
    let policy: RoutePolicy

    /// The fleet's path: health and metrics, tokens, scanners (create, list, show), switches (read,
    /// long-poll, change, stream; the seed system's too), scanner counters, ingest and the
    /// measurement feed; and the survey: floors (with their plan, geo-reference and GeoJSON
    /// export), rooms (with clearing one, its doors and autolink), locations, links (and routes
    /// over them), beacons, and the radio map built from it; positions (posted, listed, latest,
    /// streamed) and locating with that map; walk surveys; the dashboard and the emitter
    /// summary; deleting a scanner; tags (with lookup), their sightings and positions (paged,
    /// latest, stream) and events (paged, stream), and fixed scanners' placements; presence events (listed and streamed),
    /// webhooks with their deliveries, and the integrations' status.
    static let served: Set<String> = [
        "GET /healthz", "GET /metrics",
        "POST /v1/tokens", "GET /v1/tokens", "DELETE /v1/tokens/{id}",
        "POST /v1/scanners", "GET /v1/scanners", "GET /v1/scanners/{id}",
        "GET /v1/scanners/{id}/switch", "PATCH /v1/scanners/{id}/switch", "GET /v1/scanners/{id}/switch/stream",
        "GET /scanSwitch/{id}", "PATCH /scanSwitch/{id}",
        "PUT /v1/scanners/{id}/counters",
        "POST /v1/measurements", "GET /v1/measurements", "GET /v1/measurements/stream",
        "POST /v1/floors", "GET /v1/floors", "GET /v1/floors/{id}", "PATCH /v1/floors/{id}", "DELETE /v1/floors/{id}",
        "PUT /v1/floors/{id}/georeference", "GET /v1/floors/{id}/georeference", "DELETE /v1/floors/{id}/georeference",
        "GET /v1/floors/{id}/export.geojson", "PUT /v1/floors/{id}/plan", "GET /v1/floors/{id}/plan",
        "POST /v1/rooms", "GET /v1/rooms", "GET /v1/rooms/{id}", "PATCH /v1/rooms/{id}", "DELETE /v1/rooms/{id}",
        "POST /v1/rooms/{id}/clear", "GET /v1/rooms/{id}/doors", "POST /v1/rooms/{id}/autolink",
        "POST /v1/locations", "GET /v1/locations", "GET /v1/locations/{id}", "PATCH /v1/locations/{id}", "DELETE /v1/locations/{id}",
        "POST /v1/links", "GET /v1/links", "GET /v1/links/{id}", "DELETE /v1/links/{id}", "POST /v1/routes",
        "GET /v1/radiomap",
        "POST /v1/positions", "GET /v1/positions", "GET /v1/positions/latest", "GET /v1/positions/stream", "POST /v1/locate",
        "POST /v1/walks", "GET /v1/walks", "GET /v1/walks/{id}", "DELETE /v1/walks/{id}", "POST /v1/walks/{id}/arrived",
        "GET /v1/dashboard", "GET /v1/emitters", "DELETE /v1/scanners/{id}",
        "POST /v1/beacons", "GET /v1/beacons", "GET /v1/beacons/{id}", "PUT /v1/beacons/{id}", "DELETE /v1/beacons/{id}",
        "POST /v1/tags", "GET /v1/tags", "GET /v1/tags/{id}", "PATCH /v1/tags/{id}", "DELETE /v1/tags/{id}",
        "POST /v1/sightings", "GET /v1/tags/{id}/sightings",
        "GET /v1/tags/{id}/positions", "GET /v1/tags/{id}/positions/latest", "GET /v1/tags/{id}/positions/stream",
        "GET /v1/tags/{id}/events", "GET /v1/tags/{id}/events/stream",
        "GET /v1/placements", "GET /v1/scanners/{id}/placement", "PUT /v1/scanners/{id}/placement", "DELETE /v1/scanners/{id}/placement",
        "GET /v1/events", "GET /v1/events/stream", "GET /v1/stream",
        "POST /v1/webhooks", "GET /v1/webhooks", "DELETE /v1/webhooks/{id}", "GET /v1/webhooks/{id}/deliveries",
        "GET /v1/integrations/webhooks", "GET /v1/integrations/mqtt",
    ]

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        if let path = context.endpointPath, policy.hasEntry(for: request.method, path: path),
           !Self.served.contains(RoutePolicy.key(request.method, path)) {
            throw APIError.notOnPostgres(request.method, path)
        }
        return try await next(request, context)
    }

    /// The routes of `policy` that answer 501 on PostgreSQL, sorted.
    static func unserved(by policy: RoutePolicy) -> [String] {
        policy.keys.subtracting(served).sorted()
    }

    /// Says once, at start, which routes this instance answers 501 on PostgreSQL, if any.
    static func logUnserved(_ logger: Logger, policy: RoutePolicy) {
        let unserved = unserved(by: policy)
        guard !unserved.isEmpty else {
            logger.notice("On PostgreSQL: every route is served (docs/scale-out.md)")
            return
        }
        logger.notice("On PostgreSQL: the routes listed answer 501 not_on_postgres (docs/scale-out.md)", metadata: [
            "not_on_postgres": "\(unserved.joined(separator: ", "))",
        ])
    }
}

extension APIError {
    /// 501: the route (`GET /v1/tags`, say) does not run on PostgreSQL yet.
    static func notOnPostgres(_ method: HTTPRequest.Method, _ path: String) -> APIError {
        APIError(
            .notImplemented, code: "not_on_postgres",
            message: "\(method.rawValue) \(path) is not available on PostgreSQL yet: it runs on SQLite only so far (docs/scale-out.md says what runs on PostgreSQL)"
        )
    }
}
