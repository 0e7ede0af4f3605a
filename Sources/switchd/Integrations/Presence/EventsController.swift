import Hummingbird
import Metrics
import ScanContract
import SwitchdStore

/// `/v1/events`: presence events (``PresenceEvent``) of scanners and tags, paged and live,
/// filtered by `scannerID`, `tagID`, `kind`, `since` and `until`.
struct EventsController {
    let database: AppDatabase
    let feed: SequenceFeed
    /// Clients following the stream now.
    let subscribers: Meter

    func addRoutes(to routes: Routes) {
        routes.get("/v1/events", .read, use: list)
        routes.get("/v1/events/stream", .read, use: stream)
        routes.allowOnly([.get], on: "/v1/events")
        routes.allowOnly([.get], on: "/v1/events/stream")
    }

    /// A ``Page`` of ``PresenceEvent``, ascending by ID.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let (after, limit) = try query.pageRange()
        return try .json(await database.presenceEventSource(matching: try query.presenceEventFilter(), feed: feed).page(after: after, limit: limit))
    }

    /// Server-sent events, `event: presence`, `id: <event ID>`, data the ``PresenceEvent`` JSON;
    /// resumes after `Last-Event-ID` or `?after=` (see ``FeedSource/streamResponse(_:after:subscribers:logger:)``).
    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let source = database.presenceEventSource(matching: try query.presenceEventFilter(), feed: feed)
        return try await source.streamResponse(request, after: try query.int64("after"), subscribers: subscribers, logger: context.logger)
    }
}
