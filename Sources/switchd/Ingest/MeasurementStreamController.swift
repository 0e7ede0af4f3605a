import Hummingbird
import Metrics
import ScanContract
import SwitchdStore

/// `GET /v1/measurements/stream`: the stored readings as server-sent events, `event: measurement`,
/// `id: <sequence>`, data the ``StoredMeasurement`` JSON, with the filters of
/// `GET /v1/measurements`; resumes after `Last-Event-ID` or `?after=` (see
/// ``FeedSource/streamResponse(_:after:subscribers:logger:)``).
struct MeasurementStreamController {
    let database: AppDatabase
    let feed: SequenceFeed
    /// Clients following this stream now.
    let subscribers: Meter

    func addRoutes(to routes: Routes) {
        routes.get("/v1/measurements/stream", .read, use: stream)
        routes.allowOnly([.get], on: "/v1/measurements/stream")
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let source = database.measurementSource(matching: try query.measurementFilter(), feed: feed)
        return try await source.streamResponse(request, after: try query.int64("after"), subscribers: subscribers, logger: context.logger)
    }
}
