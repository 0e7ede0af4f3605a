import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/links`: walkable connections between locations, which routes follow.
struct LinksController {
    let database: AppDatabase

    func addRoutes(to routes: Routes) {
        routes.post("/v1/links", .admin, use: create)
        routes.get("/v1/links", .read, use: list)
        routes.get("/v1/links/{id}", .read, use: show)
        routes.delete("/v1/links/{id}", .admin, use: delete)
        routes.allowOnly([.get, .post], on: "/v1/links")
        routes.allowOnly([.get, .delete], on: "/v1/links/{id}")
    }

    /// 201; 422 naming the field for an unknown location, a self-link, a walk between floors or
    /// a missing or bad distance; 409 when the two locations are already linked.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewLink.self, context: context)
        return try .json(await database.createLink(new), status: .created)
    }

    /// All links, or with `?location=` those touching it (404 when it does not exist).
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.links(touching: try QueryParameters(request).int64("location")))
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.link(context.pathID("link")))
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await database.deleteLink(context.pathID("link"))
        return Response(status: .noContent)
    }
}
