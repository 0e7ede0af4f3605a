import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/locations`: surveyed spots, x and y in metres on their floor's plan.
struct LocationsController {
    let database: AppDatabase
    let hub: SwitchHub

    func addRoutes(to routes: Routes) {
        routes.post("/v1/locations", .admin, use: create)
        routes.get("/v1/locations", .visit, use: list)
        // scannerd reads the location it is told to survey (the simulated radio places itself there).
        routes.get("/v1/locations/{id}", .readForScanners, use: show)
        routes.patch("/v1/locations/{id}", .admin, use: update)
        routes.delete("/v1/locations/{id}", .admin, use: delete)
        routes.allowOnly([.get, .post], on: "/v1/locations")
        routes.allowOnly([.get, .patch, .delete], on: "/v1/locations/{id}")
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewLocation.self, context: context)
        return try .json(await database.createLocation(new), status: .created)
    }

    /// All locations, or with `?room=` and/or `?floor=` those there (404 when either does not exist).
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        return try .json(await database.locations(inRoom: try query.int64("room"), onFloor: try query.int64("floor")))
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.location(context.pathID("location")))
    }

    /// 200 with the location as it now is (moved, renamed, or in another room of its floor); its
    /// measurements stay its fingerprint.
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.pathID("location")
        let patch = try await request.decodeJSON(LocationPatch.self, context: context)
        return try .json(await database.updateLocation(id, with: patch))
    }

    /// 204; the location's measurements go with it.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deletion = try await database.deleteLocation(context.pathID("location"), at: .nowInMilliseconds())
        await hub.publish(deletion.switchesTurnedOff)
        return Response(status: .noContent)
    }
}
