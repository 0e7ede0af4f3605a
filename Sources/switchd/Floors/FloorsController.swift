import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/floors`: the floors of the surveyed buildings.
struct FloorsController {
    let database: AppDatabase
    let hub: SwitchHub

    func addRoutes(to routes: Routes) {
        routes.post("/v1/floors", .admin, use: create)
        routes.get("/v1/floors", .visit, use: list)
        routes.get("/v1/floors/{id}", .visit, use: show)
        routes.patch("/v1/floors/{id}", .admin, use: update)
        routes.delete("/v1/floors/{id}", .admin, use: delete)
        routes.allowOnly([.get, .post], on: "/v1/floors")
        routes.allowOnly([.get, .patch, .delete], on: "/v1/floors/{id}")
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewFloor.self, context: context)
        return try .json(await database.createFloor(new), status: .created)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.floors())
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.floor(context.pathID("floor")))
    }

    /// 200 with the floor as it now is: name, building, level or the plan's scale (`null` forgets it).
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.pathID("floor")
        let patch = try await request.decodeJSON(FloorPatch.self, context: context)
        let floor = try await database.updateFloor(id, with: patch)
        // A floor moved to another building changes what its placed scanners watch.
        await hub.watchedTags.bump()
        return try .json(floor)
    }

    /// 204; the floor's rooms, locations and measurements go with it.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deletion = try await database.deleteFloor(context.pathID("floor"), at: .nowInMilliseconds())
        await hub.publish(deletion.switchesTurnedOff)
        await hub.watchedTags.bump()
        return Response(status: .noContent)
    }
}
