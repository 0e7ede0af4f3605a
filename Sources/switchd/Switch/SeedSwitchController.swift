import Hummingbird
import ScanContract
import SwitchdStore

/// The seed system's `/scanSwitch/1`, mapped onto scanner `default`'s switch.
struct SeedSwitchController {
    let database: AppDatabase
    let hub: SwitchHub

    /// The only switch the seed API knows.
    static let seedSwitchID: Int64 = 1

    func addRoutes(to routes: Routes) {
        // The seed system's switch changes scanning like the v1 PATCH: admin only, reads too.
        routes.get("/scanSwitch/{id}", .admin, use: show)
        routes.patch("/scanSwitch/{id}", .admin, use: update)
        routes.allowOnly([.get, .patch], on: "/scanSwitch/{id}")
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try requireSeedSwitch(context)
        return try .json(SeedScanSwitch(await database.currentSwitch(of: .default)))
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        try requireSeedSwitch(context)
        let patch = try await request.decodeJSON(SeedSwitchPatch.self, context: context)
        let update = try await database.updateSwitch(of: .default, with: patch.switchPatch, at: .nowInMilliseconds())
        if update.isNewRevision {
            await hub.publish(update.scanSwitch)
        }
        return try .json(SeedScanSwitch(update.scanSwitch))
    }

    private func requireSeedSwitch(_ context: AppRequestContext) throws {
        guard try context.pathID("scan switch") == Self.seedSwitchID else {
            throw APIError.notFound("no scan switch \(APIError.echo(context.parameters.get("id") ?? "")); the seed API has only switch 1")
        }
    }
}
