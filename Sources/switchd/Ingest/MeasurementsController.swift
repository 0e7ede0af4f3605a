import Hummingbird
import Metrics
import ScanContract
import SwitchdStore

/// `/v1/measurements`: scanners upload batches; integrators page through what is stored.
struct MeasurementsController {
    let database: AppDatabase
    /// Stores uploads, many requests' batches per commit.
    let ingest: IngestCoalescer
    let hub: SwitchHub
    let feed: SequenceFeed
    /// Counts the readings stored.
    let stored: Counter
    /// When a batch is received (a walk survey places its cycles by it).
    var wallClock = WallClock.system

    func addRoutes(to routes: Routes) {
        routes.post("/v1/measurements", .measurementUpload, use: upload)
        routes.get("/v1/measurements", .read, use: list)
        routes.allowOnly([.get, .post], on: "/v1/measurements")
    }

    /// 201 ``BatchReceipt`` for a new batch, 200 with `duplicate: true` for one already
    /// acknowledged; 403 when a scanner token uploads for another scanner. A batch whose content
    /// switchd refuses for good (422, 409) gets an error naming its `batchID`: the scanner gives a
    /// batch up only on such an answer (see ``APIError/refusing(batch:)``). Live streams and switch
    /// waiters are told after the batch is committed. 503 with `Retry-After` when switchd has
    /// more uploads queued than it holds (``IngestCoalescer``): nothing stored, send it again.
    /// The caller's token is checked again in the transaction that stores the batch
    /// (``AccessRule/checksTokenWhenStoring``): 401 when it was revoked meanwhile.
    @Sendable func upload(_ request: Request, context: AppRequestContext) async throws -> Response {
        let batch = try await request.decodeBatch(context: context)
        try context.requireMayActFor(batch.scannerID)
        let outcome: IngestOutcome
        do {
            try batch.validate()
            outcome = try await ingest.ingest(batch, at: wallClock.now(), token: context.principal?.tokenID)
        } catch StoreError.tokenRevoked(let token) {
            throw StoreError.tokenRevoked(token)  // AuthMiddleware answers 401 and forgets the token.
        } catch {
            throw ErrorMiddleware<AppRequestContext>.apiError(for: error, request: request, logger: context.logger)
                .refusing(batch: batch.batchID)
        }
        stored.increment(by: Int64(outcome.receipt.stored))
        if let lastSequence = outcome.lastSequence {
            // On PostgreSQL another instance may yet commit a row below it: the fan-out's
            // horizon publishes it once readers may read it.
            if database.runsOnPostgres {
                await feed.commit(upTo: lastSequence)
            } else {
                await feed.publish(upTo: lastSequence)
            }
        }
        if let turnedOff = outcome.switchTurnedOff {
            await hub.publish(turnedOff)
            context.logger.info("Switch turned off by its scan count", metadata: [
                "scanner": "\(turnedOff.scannerID)", "revision": "\(turnedOff.revision)",
            ])
        }
        return try .json(outcome.receipt, status: outcome.receipt.duplicate ? .ok : .created)
    }

    /// A ``Page`` of ``StoredMeasurement``, ascending by sequence; `nextCursor` is there exactly
    /// when more rows matching the filters follow.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let (after, limit) = try query.pageRange()
        return try .json(await database.measurementSource(matching: try query.measurementFilter(), feed: feed).page(after: after, limit: limit))
    }
}
