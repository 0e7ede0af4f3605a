import Hummingbird
import ScanContract
import SwitchdStore

/// `GET /v1/emitters`: every access point and beacon the stored readings heard.
struct EmittersController {
    let database: AppDatabase

    func addRoutes(to routes: Routes) {
        routes.get("/v1/emitters", .read, use: list)
        routes.allowOnly([.get], on: "/v1/emitters")
    }

    /// A ``Page`` of ``EmitterSummary`` ordered by key; `limit` (default 100, at most 1000) and
    /// `cursor` as the other listings; 422 naming either when it does not parse.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let limit = try query.int("limit", in: 1...QueryParameters.maxPageLimit) ?? QueryParameters.defaultPageLimit
        var afterKey: String?
        if let token = query.text("cursor") {
            do {
                afterKey = try EmitterCursor(token: token).afterKey
            } catch {
                throw APIError.invalidField("cursor", error.reason)
            }
        }
        let (items, nextKey) = try await database.emitters(afterKey: afterKey, limit: limit)
        return try .json(Page(items: items, nextCursor: nextKey.map { EmitterCursor(afterKey: $0).token }))
    }
}
