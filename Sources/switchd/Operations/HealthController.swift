import Hummingbird
import SwitchdStore

/// `GET /healthz`: 200 `{"status":"ok"}` when the database answers, else 503 `unavailable`.
struct HealthController {
    let database: AppDatabase

    func addRoutes(to routes: Routes) {
        routes.get("/healthz", .open, use: health)
        routes.allowOnly([.get], on: "/healthz")
    }

    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            try await database.ping()
        } catch {
            context.logger.error("Health check failed", metadata: ["error": "\(error)"])
            throw APIError(.serviceUnavailable, code: "unavailable", message: "the database does not answer")
        }
        return try .json(["status": "ok"])
    }
}
