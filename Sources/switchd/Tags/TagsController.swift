import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/tags`: the tags fixed scanners track (bikes, assets, badges), and lookup by identity.
struct TagsController {
    let database: AppDatabase
    /// Told of every change, so listening scanners' long-polls answer with the new watched tags.
    let hub: SwitchHub
    let windows: TagWindowCloser
    /// Tags that may be registered at once (``Limits/maxTags``).
    var maxTags = Limits.defaultMaxTags
    /// Fingerprints and seals phones' keys (`irk` tags) before they are stored.
    var keys = TagKeySealer.ephemeral()

    func addRoutes(to routes: Routes) {
        routes.post("/v1/tags", .admin, use: create)
        // A fixed scanner in track mode reads which tags to forward.
        routes.get("/v1/tags", .readForScanners, use: list)
        routes.get("/v1/tags/{id}", .read, use: show)
        routes.patch("/v1/tags/{id}", .admin, use: update)
        routes.delete("/v1/tags/{id}", .admin, use: delete)
        routes.allowOnly([.get, .post], on: "/v1/tags")
        routes.allowOnly([.get, .patch, .delete], on: "/v1/tags/{id}")
    }

    /// 201; 409 when a tag has the identity or ``maxTags`` are registered; 422 naming a bad field.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        var new = try await request.decodeJSON(NewTag.self, context: context)
        let sealed = try keys.sealing(new.identity)
        new.identity = sealed.identity
        let tag = try await database.createTag(new, max: maxTags, sealedKey: sealed.sealedKey)
        await hub.watchedTags.bump()
        return try .json(tag, status: .created)
    }

    /// A ``Page`` of tags by ID (`limit`, `cursor`), all or those matching `?uuid=` (`&major=`,
    /// `&minor=`) or `?address=`; 422 naming `limit` above the most a page holds.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let (after, limit) = try query.pageRange()
        let tags = try await database.tags(matching: try query.tagLookup(), after: after, limit: limit + 1)
        return try .json(Page(read: tags, limit: limit) { FeedCursor(afterSequence: $0.id).token })
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.tag(context.pathID("tag")))
    }

    /// 200 with the tag as it now is; 404, 409 and 422 as for create.
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.pathID("tag")
        var patch = try await request.decodeJSON(TagPatch.self, context: context)
        let sealed = try patch.identity.map(keys.sealing)
        patch.identity = sealed?.identity
        let tag = try await database.updateTag(id, with: patch, sealedKey: sealed?.sealedKey)
        await hub.watchedTags.bump()
        return try .json(tag)
    }

    /// 204; the tag's sightings, positions, events and track go with it.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.pathID("tag")
        try await database.deleteTag(id)
        await hub.watchedTags.bump()
        await windows.forget(id)
        return Response(status: .noContent)
    }
}
