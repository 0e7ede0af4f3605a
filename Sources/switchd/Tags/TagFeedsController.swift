import Hummingbird
import Metrics
import ScanContract
import SwitchdStore

/// What switchd knows of one tag over time: `/v1/tags/{id}/positions` (paged, `/latest`,
/// `/stream`), `/sightings` (the "last seen" view) and `/events` (paged, `/stream`).
struct TagFeedsController {
    let database: AppDatabase
    let positions: SequenceFeed
    let events: SequenceFeed
    /// Clients following a tag's stream now.
    let subscribers: Meter

    func addRoutes(to routes: Routes) {
        routes.get("/v1/tags/{id}/positions", .read, use: listPositions)
        routes.get("/v1/tags/{id}/positions/latest", .visit, use: latest)
        routes.get("/v1/tags/{id}/positions/stream", .visit, use: streamPositions)
        routes.get("/v1/tags/{id}/sightings", .read, use: sightings)
        routes.get("/v1/tags/{id}/events", .read, use: listEvents)
        routes.get("/v1/tags/{id}/events/stream", .read, use: streamEvents)
        for path in [
            "/v1/tags/{id}/positions", "/v1/tags/{id}/positions/latest", "/v1/tags/{id}/positions/stream",
            "/v1/tags/{id}/sightings", "/v1/tags/{id}/events", "/v1/tags/{id}/events/stream",
        ] {
            routes.allowOnly([.get], on: path)
        }
    }

    /// A ``Page`` of ``TagPosition``, ascending by ID, with `since` and `until`; 404 for an unknown tag.
    @Sendable func listPositions(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, query) = try await tagAndQuery(request, context)
        let (after, limit) = try query.pageRange()
        return try .json(await positionSource(id, query).page(after: after, limit: limit))
    }

    /// The tag's latest position; 404 for an unknown tag or one never located.
    @Sendable func latest(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.latestTagPosition(of: context.pathID("tag")))
    }

    /// `event: tagPosition` server-sent events, resuming after `Last-Event-ID` or `?after=`.
    @Sendable func streamPositions(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, query) = try await tagAndQuery(request, context)
        return try await positionSource(id, query).streamResponse(request, after: try query.int64("after"), subscribers: subscribers, logger: context.logger)
    }

    /// The tag's sightings, newest first: which scanner heard it, when, how strongly; at most
    /// `?limit=` (default 100, at most 1000).
    @Sendable func sightings(_ request: Request, context: AppRequestContext) async throws -> Response {
        let limit = try QueryParameters(request).int("limit", in: 1...QueryParameters.maxPageLimit) ?? QueryParameters.defaultPageLimit
        return try .json(await database.sightings(of: context.pathID("tag"), limit: limit))
    }

    /// A ``Page`` of the tag's ``PresenceEvent``s (its presence, and `missingTagHeard`),
    /// ascending by ID, filtered as `/v1/events` (`scannerID`, `kind`, `since`, `until`); 404 for
    /// an unknown tag.
    @Sendable func listEvents(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, query) = try await tagAndQuery(request, context)
        let (after, limit) = try query.pageRange()
        return try .json(await database.tagEventSource(of: id, matching: try query.presenceEventFilter(), feed: events).page(after: after, limit: limit))
    }

    /// `event: tagEvent` server-sent events, filtered as the listing, resuming after
    /// `Last-Event-ID` or `?after=`.
    @Sendable func streamEvents(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, query) = try await tagAndQuery(request, context)
        return try await database.tagEventSource(of: id, matching: try query.presenceEventFilter(), feed: events)
            .streamResponse(request, after: try query.int64("after"), subscribers: subscribers, logger: context.logger)
    }

    /// The tag in the path, checked to exist (404), and the query.
    private func tagAndQuery(_ request: Request, _ context: AppRequestContext) async throws -> (Int64, QueryParameters) {
        let id = try context.pathID("tag")
        try await database.checkTagExists(id)
        return (id, QueryParameters(request))
    }

    private func positionSource(_ id: Int64, _ query: QueryParameters) throws -> FeedSource<TagPosition> {
        database.tagPositionSource(of: id, since: try query.date("since"), until: try query.date("until"), feed: positions)
    }
}
