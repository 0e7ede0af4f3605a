import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/walks`: walk surveys (docs/survey-quality.md, "Walk survey"). Starting and ending a walk
/// changes the scanner's switch, announced on the switch hub like any other change.
struct WalksController {
    let database: AppDatabase
    let hub: SwitchHub
    var wallClock = WallClock.system

    func addRoutes(to routes: Routes) {
        routes.post("/v1/walks", .admin, use: start)
        routes.get("/v1/walks", .read, use: list)
        routes.get("/v1/walks/{id}", .read, use: show)
        routes.delete("/v1/walks/{id}", .admin, use: delete)
        routes.post("/v1/walks/{id}/arrived", .admin, use: arrived)
        routes.allowOnly([.get, .post], on: "/v1/walks")
        routes.allowOnly([.get, .delete], on: "/v1/walks/{id}")
        routes.allowOnly([.post], on: "/v1/walks/{id}/arrived")
    }

    /// 201 with the walk; the scanner's switch now surveys the start location. 404 for an unknown
    /// scanner, 422 naming the end that does not fit, 409 when the scanner is already walking.
    @Sendable func start(_ request: Request, context: AppRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewWalk.self, context: context)
        let change = try await database.startWalk(new, at: wallClock.now())
        await publish(change, context: context)
        return try .json(change.walk, status: .created)
    }

    /// All walks, or with `?floor=` those on that floor (404 when it does not exist).
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.walks(onFloor: try QueryParameters(request).int64("floor")))
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.walk(context.pathID("walk")))
    }

    /// 200 with the walk ended now and its points placed; 409 when it already arrived.
    @Sendable func arrived(_ request: Request, context: AppRequestContext) async throws -> Response {
        let change = try await database.arrive(context.pathID("walk"), at: wallClock.now())
        await publish(change, context: context)
        return try .json(change.walk)
    }

    /// 204; the walk's points and their readings go with it.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let change = try await database.deleteWalk(context.pathID("walk"), at: wallClock.now())
        await publish(change, context: context)
        return Response(status: .noContent)
    }

    private func publish(_ change: WalkChange, context: AppRequestContext) async {
        guard let changed = change.switchChanged else { return }
        await hub.publish(changed)
        context.logger.info("Switch changed by a walk survey", metadata: [
            "scanner": "\(changed.scannerID)", "revision": "\(changed.revision)", "scanning": "\(changed.scanning)",
        ])
    }
}
