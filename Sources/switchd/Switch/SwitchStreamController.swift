import Hummingbird
import Metrics
import ScanContract
import SwitchdStore

/// `GET /v1/scanners/{id}/switch/stream`: server-sent events, `event: switch`, `id: <revision>`,
/// data the ``ScanSwitch`` JSON; the first event is the switch as it is now, then one per new
/// revision. Ends when the client leaves, switchd shuts down or the scanner is deleted.
struct SwitchStreamController {
    let database: AppDatabase
    let hub: SwitchHub
    /// Clients following a switch stream now.
    let subscribers: Meter

    func addRoutes(to routes: Routes) {
        routes.get("/v1/scanners/{id}/switch/stream", .readOwnScanner, use: stream)
        routes.allowOnly([.get], on: "/v1/scanners/{id}/switch/stream")
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let scannerID = try context.pathScannerID()
        // Before the check, so a delete after it retires this watermark and ends the stream.
        let revisions = await hub.revisions(of: scannerID)
        _ = try await database.currentSwitch(of: scannerID)
        let database = database
        let logger = context.logger
        let subscribers = subscribers
        return Response(status: .ok, headers: ServerSentEvent.headers, body: ResponseBody { writer in
            subscribers.increment()
            defer { subscribers.decrement() }
            do {
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    var sent: Int64 = 0
                    while true {
                        if await SwitchHub.isRetired(revisions) {
                            logger.debug("Switch stream ends: scanner deleted", metadata: ["scanner": "\(scannerID)"])
                            return
                        }
                        let current = try await database.currentSwitch(of: scannerID)
                        if Int64(current.revision) > sent {
                            let data = String(decoding: try JSONCoding.encoder().encode(current), as: UTF8.self)
                            try await writer.write(ServerSentEvent(id: String(current.revision), event: "switch", data: data).frame)
                            sent = Int64(current.revision)
                        }
                        let seen = sent
                        switch await wake(after: ServerSentEvent.keepAliveInterval, orWhen: { await revisions.wait(untilAbove: seen) }) {
                        case .changed: continue
                        case .timedOut: try await writer.write(ServerSentEvent.keepAlive)
                        case .stopping: return
                        }
                    }
                }
            } catch is CancellationError {
                logger.debug("Switch stream client left", metadata: ["scanner": "\(scannerID)"])
                return
            }
            try await writer.finish(nil)
        })
    }
}
