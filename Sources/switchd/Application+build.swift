import Hummingbird
import Logging
import Scan

/// Wires switchd: the router with every controller, the feeds, and the switch deadline service.
/// `main` and the tests both call this.
///
/// - Parameters:
///   - adminFiles: the admin page served at `/admin/`; nil answers 404 there.
///   - onServerRunning: called with the bound port once the server listens (port 0 picks one).
func buildApplication(
    settings: Settings,
    database: AppDatabase,
    logger: Logger,
    adminFiles: AdminFiles? = nil,
    onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let hub = SwitchHub()
    let router = buildRouter(settings: settings, database: database, hub: hub, feeds: Feeds(), adminFiles: adminFiles)
    var app = Application(
        router: router,
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "switchd"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? settings.port) },
        logger: logger
    )
    app.addServices(SwitchDeadlineService(database: database, hub: hub, logger: logger))
    return app
}

/// Every controller's routes, behind the error, body-limit and auth middleware. A route added
/// here must have its entry in `policy` (``RoutePolicy/standard``); without one only admins reach it.
func buildRouter(
    settings: Settings, database: AppDatabase, hub: SwitchHub, feeds: Feeds, adminFiles: AdminFiles? = nil,
    policy: RoutePolicy = .standard
) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: ErrorMiddleware())
    // Before anything that asks for a token: the page itself is public, its API calls are not.
    router.add(middleware: AdminFilesMiddleware(files: adminFiles))
    router.add(middleware: BodyLimitMiddleware(maxBodyBytes: settings.maxBodyBytes))
    // Router middleware runs once the route is matched, and only for routes added after it.
    router.add(middleware: AuthMiddleware(authenticator: TokenAuthenticator(database: database), policy: policy))
    HealthController(database: database).addRoutes(to: router)
    ScannersController(database: database).addRoutes(to: router)
    SwitchController(database: database, hub: hub).addRoutes(to: router)
    SwitchStreamController(database: database, hub: hub).addRoutes(to: router)
    SeedSwitchController(database: database, hub: hub).addRoutes(to: router)
    FloorsController(database: database, hub: hub).addRoutes(to: router)
    FloorPlanController(database: database, maxPlanBytes: settings.maxPlanBytes).addRoutes(to: router)
    RoomsController(database: database, hub: hub).addRoutes(to: router)
    LocationsController(database: database, hub: hub).addRoutes(to: router)
    MeasurementsController(database: database, hub: hub, feed: feeds.measurements).addRoutes(to: router)
    MeasurementStreamController(database: database, feed: feeds.measurements).addRoutes(to: router)
    RadioMapController(database: database, cache: RadioMapCache()).addRoutes(to: router)
    BeaconsController(database: database).addRoutes(to: router)
    LinksController(database: database).addRoutes(to: router)
    RoutesController(database: database, walkingSpeed: settings.walkingSpeed).addRoutes(to: router)
    PositionsController(database: database, feed: feeds.positions).addRoutes(to: router)
    PositionStreamController(database: database, feed: feeds.positions).addRoutes(to: router)
    TokensController(database: database).addRoutes(to: router)
    return router
}
