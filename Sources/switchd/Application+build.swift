import DaemonSupport
import Foundation
import Hummingbird
import Logging
import Metrics
import NIOSSL
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Wires switchd from one ``SwitchdDependencies`` value: the router with every controller, the
/// feeds, the metrics, the switch deadline service, the background services (once per cluster
/// where ``ClusterAware`` says so) and, under systemd, the watchdog and the stop notice. `main` and
/// the tests both call this.
func buildApplication(_ dependencies: SwitchdDependencies) -> some ApplicationProtocol {
    let settings = dependencies.settings, database = dependencies.database, logger = dependencies.logger
    let clock = dependencies.clock, feeds = dependencies.feeds, systemd = dependencies.systemd
    let hub = SwitchHub()
    let mqtt = MQTTIntegration(
        settings: settings.mqtt, tls: dependencies.mqttTLS, database: database, hub: hub, feeds: feeds, metrics: dependencies.metrics,
        logger: logger, clock: clock, now: dependencies.wallClock.now, status: dependencies.mqttStatus
    )
    let connections = ConnectionTable(
        limit: settings.maxConnections, overflow: DescriptorLimit.overflow, metrics: ConnectionMetrics(factory: dependencies.metrics.factory),
        logger: logger
    )
    let router = buildRouter(dependencies, hub: hub, mqtt: mqtt.status, mqttOutbox: mqtt.outbox, connections: connections)
    let onServerRunning = dependencies.onServerRunning
    var app = Application(
        router: router,
        server: .switchd(table: connections, idleTimeout: settings.idleTimeout, tls: dependencies.tls),
        configuration: .init(
            address: .hostname(settings.host, port: settings.port), serverName: "switchd",
            availableConnectionsDelegate: ConnectionLimit(table: connections)
        ),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? settings.port
            notifyReady(systemd, status: "listening on \(settings.host):\(port)", logger: logger)
            await onServerRunning(port)
        },
        logger: logger
    )
    let cluster = ClusterAware(database: database, logger: logger, clock: clock, onLeadership: dependencies.onLeadership)
    var services: [any Service] = [SwitchDeadlineService(database: database, hub: hub, logger: logger, clock: clock)]
    services += cluster.storeServices(hub: hub, feeds: feeds, mqttOutboxAdded: mqtt.outbox.map { _ in mqtt.status.outboxAdded })
    if let keep = settings.keepHistory {
        services += cluster.oncePerCluster("retention", [HistoryRetentionService(database: database, keep: keep, logger: logger, clock: clock)])
    }
    services += cluster.oncePerCluster("integrations", integrationServices(
        settings: settings, database: database, feeds: feeds, logger: logger, clock: clock, now: dependencies.wallClock.now
    ))
    // One broker session per cluster (docs/scale-out.md), in an election of its own rather than
    // the integrations': it exists only with a broker, and its session may then live on another
    // instance than presence derivation and webhooks, spreading the background work. Every
    // instance has the same client ID, so should two ever overlap (a leader that has not yet seen
    // its lock go), the broker keeps one session.
    services += cluster.oncePerCluster("mqtt", mqtt.services)
    services.append(DaemonServiceAdapter(service: SystemdLifecycleService(notifier: systemd, readyStatus: nil, logger: logger)))
    // Healthy while the database answers: a hung SQLite stops the pings and systemd restarts switchd.
    if let watchdog = WatchdogService(notifier: systemd, environment: dependencies.environment, logger: logger, clock: clock, isHealthy: {
        (try? await database.ping()) != nil
    }) {
        services.append(DaemonServiceAdapter(service: watchdog))
    }
    for service in services {
        app.addServices(service)
    }
    return app
}

/// The presence derivation, the scanners' offline check and the webhook outbox, their timers on `clock`.
private func integrationServices(
    settings: Settings, database: AppDatabase, feeds: Feeds, logger: Logger, clock: some Clock<Duration>, now: @escaping @Sendable () -> Date
) -> [any Service] {
    [
        PresenceService(database: database, rules: settings.presence, feeds: feeds, clock: clock, logger: logger),
        ScannerOfflineService(database: database, feeds: feeds, silence: settings.scannerOfflineAfter, clock: clock, now: now, logger: logger),
        BeaconSilenceService(
            database: database, feeds: feeds, silence: settings.beaconSilentAfter, fade: settings.beaconFade, newAfter: settings.beaconNewAfter,
            logger: logger
        ),
        WebhookDeliveryService(
            database: database, retry: settings.webhookRetry, destinations: settings.webhookDestinations, feeds: feeds, clock: clock, logger: logger
        ),
    ]
}

/// `READY=1` once the socket listens; a failure is logged (systemd then times the start out).
private func notifyReady(_ systemd: SystemdNotifier, status: String, logger: Logger) {
    do {
        try systemd.notify(.ready, .status(status))
    } catch {
        logger.error("could not tell systemd switchd is ready", metadata: ["error": "\(error)"])
    }
}

/// Every controller's routes (`mqttOutbox` for what a scanner's delete sends the broker;
/// `connections` to refuse requests on overflow connections, see ``OverloadMiddleware``), behind
/// the metrics, response-header, error, body-limit and auth middleware. Each controller names the
/// rule of each route it registers (``Routes``); `policy` ends up holding them all.
func buildRouter(
    _ dependencies: SwitchdDependencies, hub: SwitchHub = SwitchHub(), mqtt: MQTTStatus? = nil, mqttOutbox: MQTTOutbox? = nil,
    connections: ConnectionTable? = nil, policy: RoutePolicy = RoutePolicy()
) -> Router<AppRequestContext> {
    let settings = dependencies.settings, database = dependencies.database, feeds = dependencies.feeds, metrics = dependencies.metrics
    let clock = dependencies.clock, logger = dependencies.logger, wallClock = dependencies.wallClock
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: HTTPMetricsMiddleware(metrics: metrics))
    router.add(middleware: ResponseHeadersMiddleware())
    router.add(middleware: ErrorMiddleware())
    let authenticator = TokenAuthenticator(database: database)
    let streams = OpenStreams(caps: settings.streamCaps)
    router.add(middleware: OverloadMiddleware(table: connections, priority: connections.map {
        ScannerPriority(streams: streams, table: $0, authenticator: authenticator, evicted: metrics.streamsEvicted, logger: logger)
    }))
    // Before anything that asks for a token: the pages themselves are public, their API calls are not.
    router.add(middleware: AdminFilesMiddleware(files: dependencies.adminFiles))
    router.add(middleware: AdminFilesMiddleware(files: dependencies.visitFiles, prefix: "/visit/", page: "visit"))
    router.add(middleware: BodyLimitMiddleware(maxBodyBytes: settings.maxBodyBytes))
    // Router middleware runs once the route is matched, and only for routes added after it.
    router.add(middleware: AuthMiddleware(authenticator: authenticator, policy: policy, throttle: dependencies.authThrottle, metrics: metrics))
    router.add(middleware: StreamLimitMiddleware(streams: streams))
    let routes = Routes(router: router, policy: policy)
    HealthController(database: database).addRoutes(to: routes)
    MetricsController(database: database, metrics: metrics).addRoutes(to: routes)
    ScannerCountersController(
        database: database, metrics: metrics, feeds: feeds, wallClock: wallClock, versions: ScannerVersionWatch(metrics: metrics, logger: logger),
        logger: logger
    ).addRoutes(to: routes)
    ScannersController(database: database, hub: hub).addRoutes(to: routes)
    ScannerDeleteController(database: database, hub: hub, metrics: metrics, mqttOutbox: mqttOutbox).addRoutes(to: routes)
    EnrolmentController(
        database: database, throttle: dependencies.authThrottle, metrics: metrics, wallClock: wallClock, tlsPin: dependencies.tlsPin
    ).addRoutes(to: routes)
    let switchWrites = SwitchWritesWaiting()
    SwitchController(database: database, hub: hub, switchWrites: switchWrites, clock: clock, keys: dependencies.tagKeys).addRoutes(to: routes)
    SwitchStreamController(database: database, hub: hub, subscribers: metrics.subscribers(feed: "switch")).addRoutes(to: routes)
    SeedSwitchController(database: database, hub: hub).addRoutes(to: routes)
    FloorsController(database: database, hub: hub).addRoutes(to: routes)
    let svgPlans = dependencies.svgPlans ?? SVGPlanReader(budget: .standard(maxBytes: settings.maxPlanBytes))
    FloorPlanController(database: database, maxPlanBytes: settings.maxPlanBytes, svgPlans: svgPlans).addRoutes(to: routes)
    RoomsController(database: database, hub: hub).addRoutes(to: routes)
    LocationsController(database: database, hub: hub).addRoutes(to: routes)
    WalksController(database: database, hub: hub, wallClock: wallClock).addRoutes(to: routes)
    MeasurementsController(
        database: database, ingest: IngestCoalescer(database: database, switchWrites: switchWrites, metrics: metrics.factory, logger: logger), hub: hub,
        feed: feeds.measurements, stored: metrics.measurementsStored, wallClock: wallClock
    ).addRoutes(to: routes)
    MeasurementStreamController(database: database, feed: feeds.measurements, subscribers: metrics.subscribers(feed: "measurements"))
        .addRoutes(to: routes)
    let radioMaps = RadioMapCache(estimates: dependencies.expectedErrors)
    RadioMapController(database: database, cache: radioMaps).addRoutes(to: routes)
    LocateController(
        database: database, locators: LocatorCache(maps: radioMaps), feed: feeds.positions, stored: metrics.positionsStored,
        maxReadings: settings.limits.maxLocateReadings, budget: LocateBudget(perMinute: settings.limits.locateReadingsPerMinute, clock: clock)
    ).addRoutes(to: routes)
    GeoreferenceController(database: database).addRoutes(to: routes)
    RoomLinksController(database: database, svgPlans: svgPlans).addRoutes(to: routes)
    EmittersController(database: database).addRoutes(to: routes)
    BeaconsController(database: database, hub: hub).addRoutes(to: routes)
    LinksController(database: database).addRoutes(to: routes)
    RoutesController(database: database, walkingSpeed: settings.walkingSpeed).addRoutes(to: routes)
    PositionsController(database: database, feed: feeds.positions, stored: metrics.positionsStored).addRoutes(to: routes)
    PositionStreamController(database: database, feed: feeds.positions, subscribers: metrics.subscribers(feed: "positions"))
        .addRoutes(to: routes)
    TokensController(database: database).addRoutes(to: routes)
    EventsController(database: database, feed: feeds.events, subscribers: metrics.subscribers(feed: "events")).addRoutes(to: routes)
    WebhooksController(database: database, destinations: settings.webhookDestinations, maxWebhooks: settings.limits.maxWebhooks).addRoutes(to: routes)
    IntegrationsController(
        database: database, mqtt: mqtt ?? MQTTStatus(broker: nil, factory: metrics.factory), now: dependencies.wallClock.now
    ).addRoutes(to: routes)
    let tracker = TagTracker(database: database)
    let windows = TagWindowCloser(tracker: tracker, clock: clock, logger: logger) { [feeds] positions in
        if let last = positions.last { await feeds.tagPositions.publish(upTo: last.id) }
    }
    TagsController(database: database, hub: hub, windows: windows, maxTags: settings.limits.maxTags, keys: dependencies.tagKeys).addRoutes(to: routes)
    TagReferencesController(database: database, wallClock: wallClock).addRoutes(to: routes)
    TagFeedsController(database: database, positions: feeds.tagPositions, events: feeds.tagEvents, subscribers: metrics.subscribers(feed: "tags"))
        .addRoutes(to: routes)
    SightingsController(database: database, windows: windows, tracker: tracker, feeds: feeds, batteryLow: settings.batteryLow).addRoutes(to: routes)
    PlacementsController(database: database, hub: hub).addRoutes(to: routes)
    LiveFeedController(database: database, hub: hub, feeds: feeds, subscribers: metrics.subscribers(feed: "live"))
        .addRoutes(to: routes)
    DashboardController(database: database).addRoutes(to: routes)
    return router
}
