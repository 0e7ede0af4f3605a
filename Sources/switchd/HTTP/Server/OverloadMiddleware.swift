import Hummingbird
import Logging

/// Answers requests on overflow connections (accepted past `--max-connections` while every
/// connection was busy, see ``ConnectionTable``) with 503 `overloaded` and `Retry-After`,
/// counted in `switchd_connections_refused_total`; `GET /healthz` is answered as usual, so a
/// health check tells a full switchd from a dead one, and a scanner's request is served when
/// `priority` can end a reader's stream for it (``ScannerPriority``). The connection closes
/// after the answer.
struct OverloadMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let table: ConnectionTable?
    var priority: ScannerPriority?

    static let retryAfterSeconds = 1

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let table, request.uri.path != "/healthz",
              table.isOverflow(context.connection) || context.parentConnection.map(table.isOverflow) == true else {
            return try await next(request, context)
        }
        if let priority, await priority.makeRoom(for: request) {
            return try await next(request, context)
        }
        table.metrics.refused.increment()
        throw APIError(
            .serviceUnavailable, code: "overloaded",
            message: "switchd holds as many connections as it may; try again in \(Self.retryAfterSeconds) s",
            headers: [.retryAfter: String(Self.retryAfterSeconds), .connection: "close"]
        )
    }
}
