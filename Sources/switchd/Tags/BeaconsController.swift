import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/beacons`: the registry of iBeacons of known position. `PUT /v1/beacons/{id}` replaces a
/// beacon with a whole ``NewBeacon``.
struct BeaconsController {
    let database: AppDatabase
    /// Told of every change: placed scanners watch their building's beacons
    /// (``ScanSwitch/watchedTags``), so their long-polls answer with the new list.
    let hub: SwitchHub

    func addRoutes(to routes: Routes) {
        routes.post("/v1/beacons", .admin, use: create)
        routes.get("/v1/beacons", .visit, use: list)
        routes.get("/v1/beacons/{id}", .visit, use: show)
        routes.put("/v1/beacons/{id}", .admin, use: replace)
        routes.delete("/v1/beacons/{id}", .admin, use: delete)
        routes.allowOnly([.get, .post], on: "/v1/beacons")
        routes.allowOnly([.get, .put, .delete], on: "/v1/beacons/{id}")
    }

    /// 201; 422 naming `floorID` for an unknown floor; 409 when the identity is registered.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewBeacon.self, context: context)
        let beacon = try await database.createBeacon(new)
        await hub.watchedTags.bump()
        return try .json(beacon, status: .created)
    }

    /// A ``Page`` of beacons by ID (`limit`, `cursor`): all, or with `?floor=` those of one floor
    /// (404 when it does not exist); with `?uuid=` (`&major=`, `&minor=`) those of that identity.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let (after, limit) = try query.pageRange()
        let beacons = try await database.beacons(onFloor: try query.int64("floor"), matching: try query.tagLookup(), after: after, limit: limit + 1)
        return try .json(Page(read: beacons, limit: limit) { FeedCursor(afterSequence: $0.id).token })
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.beacon(context.pathID("beacon")))
    }

    /// 200 with the beacon as it now is; errors as for create, and 404 for an unknown beacon.
    @Sendable func replace(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.pathID("beacon")
        let new = try await request.decodeJSON(NewBeacon.self, context: context)
        let beacon = try await database.replaceBeacon(id, with: new)
        await hub.watchedTags.bump()
        return try .json(beacon)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await database.deleteBeacon(context.pathID("beacon"))
        await hub.watchedTags.bump()
        return Response(status: .noContent)
    }
}
