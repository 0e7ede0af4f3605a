import Hummingbird
import Metrics
import ScanContract
import SwitchdStore

/// `/v1/positions`: positions scanners computed on the device.
struct PositionsController {
    let database: AppDatabase
    let feed: SequenceFeed
    /// Counts the positions stored.
    let stored: Counter

    func addRoutes(to routes: Routes) {
        routes.post("/v1/positions", .upload, use: create)
        routes.get("/v1/positions", .read, use: list)
        routes.get("/v1/positions/latest", .visit, use: latest)
        routes.allowOnly([.get, .post], on: "/v1/positions")
        routes.allowOnly([.get], on: "/v1/positions/latest")
    }

    /// 201 with the stored ``Position``; 403 when a scanner token posts for another scanner; 404
    /// for an unknown scanner; 422 naming the field for an unknown floor, room or location or a
    /// bad value. Live streams are told after the commit.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewPosition.self, context: context)
        try context.requireMayActFor(new.scannerID)
        let position = try await database.createPosition(new)
        stored.increment()
        await feed.publish(upTo: position.id)
        return try .json(position, status: .created)
    }

    /// A ``Page`` of ``Position``, ascending by ID, filtered by `scannerID`, `since`, `until`.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let (after, limit) = try query.pageRange()
        return try .json(await database.positionSource(matching: try query.positionFilter(), feed: feed).page(after: after, limit: limit))
    }

    /// Each scanner's latest position; with `?scannerID=` that scanner's alone, as one object
    /// (404 when the scanner is unknown or has posted none).
    @Sendable func latest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let scannerID = try QueryParameters(request).scannerID("scannerID")
        let latest = try await database.latestPositions(of: scannerID)
        if scannerID != nil, let only = latest.first {
            return try .json(only)
        }
        return try .json(latest)
    }
}
