import Hummingbird
import Scan

/// `GET /v1/measurements/stream`: the stored readings as server-sent events, `event: measurement`,
/// `id: <sequence>`, data the ``StoredMeasurement`` JSON, with the filters of
/// `GET /v1/measurements`.
///
/// Starts after the `Last-Event-ID` header or `?after=` sequence, else with readings stored from
/// now on. The database is the source of truth: the stream reads rows after the last one it
/// covered, in pages, then waits for the feed to announce more, so nothing is skipped or sent
/// twice. A `: keep-alive` comment goes out every 15 s of quiet. Ends when the client leaves or
/// switchd shuts down.
struct MeasurementStreamController {
    let database: AppDatabase
    let feed: MeasurementFeed

    /// The header an event-stream client sends when it reconnects, lower case as HTTP/2 spells it.
    static let lastEventIDHeader = "last-event-id"

    /// Rows read from the database at a time.
    static let pageSize = 500

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/measurements/stream", use: stream)
        router.allowOnly([.get], on: "/v1/measurements/stream")
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let filter = try query.measurementFilter()
        // "From now" is fixed before the response starts, so a reading stored once the client
        // has the response head is always sent.
        let startAfter: Int64
        if let resumeAfter = try resumePoint(request, query) {
            startAfter = resumeAfter
        } else {
            startAfter = try await database.endOfMeasurementFeed()
        }
        let database = database
        let feed = feed
        let logger = context.logger
        return Response(status: .ok, headers: ServerSentEvent.headers, body: ResponseBody { writer in
            do {
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    let encoder = JSONCoding.encoder()
                    var covered = startAfter
                    while true {
                        let slice = try await database.measurements(matching: filter, after: covered, limit: Self.pageSize)
                        for item in slice.items {
                            let data = String(decoding: try encoder.encode(item), as: UTF8.self)
                            try await writer.write(ServerSentEvent(id: String(item.sequence), event: "measurement", data: data).frame)
                        }
                        if slice.items.count == Self.pageSize, let last = slice.items.last {
                            covered = last.sequence
                            continue
                        }
                        // Every matching row up to the end of the feed at the time of the read is sent.
                        covered = max(slice.items.last?.sequence ?? covered, slice.endOfFeed)
                        let seen = covered
                        switch await wake(after: ServerSentEvent.keepAliveInterval, orWhen: { await feed.waitForReadings(after: seen) }) {
                        case .changed: continue
                        case .timedOut: try await writer.write(ServerSentEvent.keepAlive)
                        case .stopping: return
                        }
                    }
                }
            } catch is CancellationError {
                logger.debug("Measurement stream client left")
                return
            }
            try await writer.finish(nil)
        })
    }

    /// The sequence to resume after: `Last-Event-ID` (what browsers send on reconnect) wins over
    /// `?after=`; nil for "from now".
    private func resumePoint(_ request: Request, _ query: QueryParameters) throws -> Int64? {
        if let header = request.headers.first(where: { $0.name.canonicalName == Self.lastEventIDHeader })?.value {
            guard let sequence = Int64(header), sequence >= 0 else {
                throw APIError.invalidField("Last-Event-ID", "must be the id of an event of this stream (a sequence number), got \(APIError.echo(header))")
            }
            return sequence
        }
        return try query.int64("after")
    }
}
