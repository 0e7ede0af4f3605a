import Hummingbird
import Metrics
import ScanContract
import SwitchdStore

/// `GET /v1/positions/stream`: stored positions as server-sent events, `event: position`,
/// `id: <position ID>`, data the ``Position`` JSON, with the filters of `GET /v1/positions`;
/// resumes after `Last-Event-ID` or `?after=` (see ``FeedSource/streamResponse(_:after:subscribers:logger:)``).
struct PositionStreamController {
    let database: AppDatabase
    let feed: SequenceFeed
    /// Clients following this stream now.
    let subscribers: Meter

    func addRoutes(to routes: Routes) {
        routes.get("/v1/positions/stream", .visit, use: stream)
        routes.allowOnly([.get], on: "/v1/positions/stream")
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let source = database.positionSource(matching: try query.positionFilter(), feed: feed)
        return try await source.streamResponse(request, after: try query.int64("after"), subscribers: subscribers, logger: context.logger)
    }
}
