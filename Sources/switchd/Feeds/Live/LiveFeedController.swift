import Foundation
import Hummingbird
import Logging
import Metrics
import ScanContract
import SwitchdStore

/// `GET /v1/stream`: one server-sent-event stream carrying several feeds at once, so that a page
/// following many tags and scanners holds one connection, not one per item (browsers allow six
/// HTTP/1.1 connections per origin). Each event is `event: <feed>` (``LiveFeedName``), data the
/// item's JSON as that feed's own stream sends it (the item named by its `tagID` or
/// `scannerID`), `id:` the stream's ``LiveCursor``; `Last-Event-ID` (or `?after=`) resumes after
/// it, nothing skipped or repeated, and a feed the cursor does not name starts from now.
struct LiveFeedController {
    let database: AppDatabase
    let hub: SwitchHub
    let feeds: Feeds
    /// `switchd_feed_subscribers{feed="live"}`: streams open now (each is also in ``OpenStreams``).
    let subscribers: Meter

    /// What a `visitor` token may follow: positions, not readings or switches.
    static let visitorFeeds: Set<LiveFeedName> = [.position, .tagPosition]

    func addRoutes(to routes: Routes) {
        // As the feeds' own streams, read only; a visitor token gets positions only (filtered below).
        routes.get("/v1/stream", .visit, use: stream)
        routes.allowOnly([.get], on: "/v1/stream")
    }

    /// - Throws: 422 for a bad query or resume point (``LiveFeedQuery``); 403 when a visitor token
    ///   asks for more than positions (``visitorFeeds``); 404 when the switch feed names an unknown scanner.
    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = try LiveFeedQuery(request)
        if context.principal?.role == .visitor, !query.feeds.isSubset(of: Self.visitorFeeds) {
            throw APIError.forbidden("a visitor token follows positions only: feeds=position,tagPosition")
        }
        // "From now" is fixed before the response starts, so a row stored once the client has
        // the response head is always sent.
        let lanes = try await lanes(for: query)
        let subscribers = subscribers
        let logger = context.logger
        return Response(status: .ok, headers: ServerSentEvent.headers, body: ResponseBody { writer in
            subscribers.increment()
            defer { subscribers.decrement() }
            do {
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    try await Self.follow(lanes, writer: &writer)
                }
            } catch is CancellationError {
                logger.debug("Live stream client left")
                return
            }
            try await writer.finish(nil)
        })
    }

    /// Writes each lane's events as they come, until the client leaves or switchd shuts down; a
    /// `: keep-alive` comment goes out every 15 s of quiet.
    private static func follow(_ lanes: [any LiveLane], writer: inout any ResponseBodyWriter) async throws {
        var lanes = lanes
        let encoder = JSONCoding.encoder()
        while true {
            var more = false
            for index in lanes.indices {
                let (events, laneMore) = try await lanes[index].read(encoder: encoder)
                more = more || laneMore
                for event in events {
                    var cursor = LiveCursor()
                    for (other, lane) in lanes.enumerated() {
                        cursor.sequences[lane.feed] = other == index ? (event.sequence ?? lane.covered) : lane.covered
                    }
                    let frame = ServerSentEvent(id: cursor.text, event: lanes[index].feed.rawValue, data: event.data)
                    try await writer.write(try frame.frame)
                }
            }
            if more { continue }
            let waiting = lanes
            switch await wake(after: ServerSentEvent.keepAliveInterval, orWhen: { await anyChange(of: waiting) }) {
            case .changed: continue
            case .timedOut: try await writer.write(ServerSentEvent.keepAlive)
            case .stopping: return
            }
        }
    }

    /// Returns once any lane may have more.
    private static func anyChange(of lanes: [any LiveLane]) async {
        await withTaskGroup(of: Void.self) { group in
            for lane in lanes {
                group.addTask { await lane.waitForChange() }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// One lane per feed `query` follows, each starting where the resume point says, else now.
    private func lanes(for query: LiveFeedQuery) async throws -> [any LiveLane] {
        var lanes: [any LiveLane] = []
        func start(_ feed: LiveFeedName, end: () async throws -> Int64) async throws -> Int64 {
            if let sequence = query.resume?.sequences[feed] { return sequence }
            return try await end()
        }
        for feed in query.feeds.sorted() {
            switch feed {
            case .position:
                // One scanner is narrowed in the database; several are kept as they are read.
                let filter = PositionFilter(scannerID: query.scannerIDs.flatMap { $0.count == 1 ? $0.first : nil })
                let source = database.positionSource(matching: filter, feed: feeds.positions)
                lanes.append(RowLane(feed, source: source, after: try await start(feed, end: source.end)) { position in
                    query.follows(position.scannerID) && query.follows(floorID: position.floor)
                })
            case .tagPosition:
                let source = database.tagPositionSource(of: query.tagIDs.flatMap { $0.count == 1 ? $0.first : nil }, since: nil, until: nil, feed: feeds.tagPositions)
                lanes.append(RowLane(feed, source: source, after: try await start(feed, end: source.end)) { position in
                    (query.tagIDs?.contains(position.tagID) ?? true) && query.follows(floorID: position.floorID)
                })
            case .measurement:
                let filter = MeasurementFilter(scannerID: query.scannerIDs.flatMap { $0.count == 1 ? $0.first : nil })
                let source = database.measurementSource(matching: filter, feed: feeds.measurements)
                lanes.append(RowLane(feed, source: source, after: try await start(feed, end: source.end)) { stored in
                    query.follows(stored.scannerID)
                })
            case .switch:
                let scanners = query.scannerIDs ?? []
                for scannerID in scanners {
                    _ = try await database.currentSwitch(of: scannerID)
                }
                lanes.append(SwitchLane(database: database, hub: hub, scanners: scanners))
            }
        }
        return lanes
    }
}
