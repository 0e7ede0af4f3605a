import Hummingbird
import ScanContract
import SwitchdStore

/// Fixed scanners: `/v1/scanners/{id}/placement` places one on a floor (with its height, and an
/// admin's override of its receive offset) and shows the offset switchd estimated;
/// `GET /v1/placements` lists every fixed scanner (`?floor=` one floor's).
struct PlacementsController {
    let database: AppDatabase
    /// Told of every change: a placed scanner watches its building's beacons, nearest first.
    let hub: SwitchHub

    func addRoutes(to routes: Routes) {
        routes.get("/v1/scanners/{id}/placement", .readOwnScanner, use: show)
        routes.put("/v1/scanners/{id}/placement", .admin, use: place)
        routes.delete("/v1/scanners/{id}/placement", .admin, use: remove)
        routes.get("/v1/placements", .read, use: list)
        routes.allowOnly([.get, .put, .delete], on: "/v1/scanners/{id}/placement")
        routes.allowOnly([.get], on: "/v1/placements")
    }

    /// 404 for an unknown scanner or one that is not fixed.
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.placement(of: context.pathScannerID()))
    }

    /// 200 with the placement; 404 for an unknown scanner; 422 naming a bad field or unknown floor.
    @Sendable func place(_ request: Request, context: AppRequestContext) async throws -> Response {
        let scannerID = try context.pathScannerID()
        let new = try await request.decodeJSON(NewScannerPlacement.self, context: context)
        let placement = try await database.placeScanner(scannerID, new)
        await hub.watchedTags.bump()
        return try .json(placement)
    }

    /// 204: the scanner roams again, also when it was not placed (idempotent); 404 for an unknown scanner.
    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await database.unplaceScanner(context.pathScannerID())
        await hub.watchedTags.bump()
        return Response(status: .noContent)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.placements(onFloor: try QueryParameters(request).int64("floor")))
    }
}
