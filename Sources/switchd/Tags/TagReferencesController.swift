import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/tags/{id}/references`: "record this tag here". The admin holds the tag at a spot and
/// says where; the tag's next windows that placed scanners report become a reference point of
/// the fixed scanners' fingerprint map (docs/tags.md, "Fingerprints").
struct TagReferencesController {
    let database: AppDatabase
    let wallClock: WallClock

    func addRoutes(to routes: Routes) {
        routes.post("/v1/tags/{id}/references", .admin, use: create)
        routes.get("/v1/tags/{id}/references", .read, use: list)
        routes.get("/v1/tags/{id}/references/{reference}", .read, use: show)
        routes.delete("/v1/tags/{id}/references/{reference}", .admin, use: delete)
        routes.allowOnly([.get, .post], on: "/v1/tags/{id}/references")
        routes.allowOnly([.get, .delete], on: "/v1/tags/{id}/references/{reference}")
    }

    /// 201 with the reference, recording; 404 for an unknown tag or floor; 409 while the tag's
    /// previous recording runs; 422 naming a bad field.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let tagID = try context.pathID("tag")
        let new = try await request.decodeJSON(NewTagReference.self, context: context)
        return try .json(try await database.createTagReference(new, for: tagID, at: wallClock.now()), status: .created)
    }

    /// The tag's references, oldest first, each with its progress.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.tagReferences(of: context.pathID("tag")))
    }

    /// One reference: poll it for the recording's progress.
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let tagID = try context.pathID("tag")
        return try .json(await database.tagReference(context.pathID("reference", parameter: "reference"), of: tagID))
    }

    /// 204: the reference and what it recorded are gone (a recording stops).
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let tagID = try context.pathID("tag")
        try await database.deleteTagReference(context.pathID("reference", parameter: "reference"), of: tagID)
        return Response(status: .noContent)
    }
}
