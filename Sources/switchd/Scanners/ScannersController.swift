import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/scanners`: register scanners and look them up with their health (``ScannerHealth``;
/// ``ScannerDeleteController`` deletes them).
struct ScannersController {
    let database: AppDatabase
    /// Told of the new scanner's switch, so whoever follows switches (the MQTT publisher) sees it.
    let hub: SwitchHub

    func addRoutes(to routes: Routes) {
        routes.post("/v1/scanners", .admin, use: create)
        routes.get("/v1/scanners", .visit, use: list)
        routes.get("/v1/scanners/{id}", .readOwnScanner, use: show)
        routes.patch("/v1/scanners/{id}", .admin, use: update)
        routes.allowOnly([.get, .post], on: "/v1/scanners")
        // DELETE is ScannerDeleteController's.
        routes.allowOnly([.get, .patch, .delete], on: "/v1/scanners/{id}")
    }

    /// 201 with the scanner; 409 when the ID is taken.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewScanner.self, context: context)
        let scanner = try await database.createScanner(new, at: .nowInMilliseconds())
        await hub.publish(try await database.currentSwitch(of: scanner.id))
        return try .json(scanner, status: .created)
    }

    /// A ``Page`` of scanners by ID (`limit`, `cursor`).
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (after, limit) = try QueryParameters(request).keyPageRange()
        let scanners = try await withHealth(database.scanners(after: after, limit: limit + 1))
        return try .json(Page(read: scanners, limit: limit) { KeyCursor(afterKey: $0.id.rawValue).token })
    }

    /// One scanner with its health and settings; `*`: the fleet's default settings (``FleetSettings``).
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        if context.parameters.get("id") == AppDatabase.fleetScope { return try .json(await database.fleetSettings()) }
        return try .json(await withHealth([database.scanner(context.pathScannerID())])[0])
    }

    /// A ``ScannerPatch``: 200 with the scanner as `GET` shows it (on `*`, the fleet's
    /// ``FleetSettings``); 422 naming an unknown or out-of-range setting, a window more than the
    /// interval, a bad name, or a name for `*`; nothing changes then. Settings that change wake
    /// the long-polls of the switch, which carry them to the scanners.
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let patch = try await request.decodeJSON(ScannerPatch.self, context: context)
        if context.parameters.get("id") == AppDatabase.fleetScope {
            guard patch.name == nil else { throw APIError.invalidField("name", "the fleet's defaults (*) have no name") }
            let update = try await database.updateFleetSettings(patch.settings ?? ScannerSettings())
            if update.changed {
                await hub.settings.bump()
                context.logger.info("Fleet settings changed", metadata: ["settingsRevision": "\(update.fleet.settingsRevision)"])
            }
            return try .json(update.fleet)
        }
        let scannerID = try context.pathScannerID()
        let update = try await database.updateScanner(scannerID, with: patch)
        if update.settingsChanged {
            await hub.settings.bump()
            context.logger.info("Scanner settings changed", metadata: ["scanner": "\(scannerID)"])
        }
        return try .json(await withHealth([update.scanner])[0])
    }

    /// `scanners`, each with its ``ScannerHealth``.
    private func withHealth(_ scanners: [ScanContract.Scanner]) async throws -> [ScanContract.Scanner] {
        let health = try await database.scannerHealth(of: scanners.map(\.id))
        return scanners.map { ScanContract.Scanner(id: $0.id, name: $0.name, health: health[$0.id]) }
    }
}
