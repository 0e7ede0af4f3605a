import Hummingbird
import Logging
import Metrics
import ScanContract

extension FeedSource {
    /// Rows read from the database at a time by a stream.
    static var streamPageSize: Int { 500 }

    /// A `text/event-stream` answer: every matching row after the `Last-Event-ID` header or the
    /// sequence `after` (the `?after=` parameter), else from now on, as `event: <event>`,
    /// `id: <sequence>`, data the item's JSON. `subscribers` is one higher while the response body is being written.
    ///
    /// The database is the source of truth: the stream reads rows after the last one it covered,
    /// in pages, then waits for the feed to announce more, so nothing is skipped or sent twice. A
    /// `: keep-alive` comment goes out every 15 s of quiet. Ends when the client leaves or switchd
    /// shuts down.
    ///
    /// - Throws: 422 naming `Last-Event-ID` when it is not a sequence number.
    func streamResponse(_ request: Request, after: Int64?, subscribers: Meter, logger: Logger) async throws -> Response {
        // "From now" is fixed before the response starts, so a row stored once the client has
        // the response head is always sent.
        let startAfter: Int64
        if let resumeAfter = try Self.resumePoint(request, after: after) {
            startAfter = resumeAfter
        } else {
            startAfter = try await end()
        }
        let source = self
        return Response(status: .ok, headers: ServerSentEvent.headers, body: ResponseBody { writer in
            subscribers.increment()
            defer { subscribers.decrement() }
            do {
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    let encoder = JSONCoding.encoder()
                    var covered = startAfter
                    while true {
                        let slice = try await source.read(covered, Self.streamPageSize)
                        for item in slice.items {
                            let data = String(decoding: try encoder.encode(item), as: UTF8.self)
                            try await writer.write(ServerSentEvent(id: String(source.sequence(item)), event: source.event, data: data).frame)
                        }
                        if slice.items.count == Self.streamPageSize, let last = slice.items.last {
                            covered = source.sequence(last)
                            continue
                        }
                        // Every matching row up to the end of the feed at the time of the read is sent.
                        covered = max(slice.items.last.map(source.sequence) ?? covered, slice.endOfFeed)
                        let seen = covered
                        switch await wake(after: ServerSentEvent.keepAliveInterval, orWhen: { await source.feed.waitForRows(after: seen) }) {
                        case .changed: continue
                        case .timedOut: try await writer.write(ServerSentEvent.keepAlive)
                        case .stopping: return
                        }
                    }
                }
            } catch is CancellationError {
                logger.debug("Stream client left", metadata: ["event": "\(source.event)"])
                return
            }
            try await writer.finish(nil)
        })
    }

    /// The sequence to resume after: `Last-Event-ID` (what browsers send on reconnect) wins over
    /// `after`; nil for "from now".
    private static func resumePoint(_ request: Request, after: Int64?) throws -> Int64? {
        if let header = ServerSentEvent.lastEventID(of: request) {
            guard let sequence = Int64(header), sequence >= 0 else {
                throw APIError.invalidField("Last-Event-ID", "must be the id of an event of this stream (a sequence number), got \(APIError.echo(header))")
            }
            return sequence
        }
        return after
    }
}
