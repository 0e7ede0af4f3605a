import DaemonSupport
import Foundation
import Hummingbird
import Logging
import Metrics
import NIOSSL
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Wires switchd: the router with every controller, the feeds, the metrics, the switch deadline
/// service and, under systemd, the watchdog and the stop notice. `main` and the tests both call this.
///
/// - Parameters:
///   - adminFiles: the admin page served at `/admin/`; nil answers 404 there.
///   - visitFiles: the visitor page served at `/visit/`; nil answers 404 there.
///   - authThrottle: counts failed authentications per client address; tests give it a clock they move.
///   - systemd: where readiness, status and watchdog pings go; does nothing outside systemd.
///   - feeds: the live feeds; ``Feeds/events`` announces each presence event stored (follow it
///     with ``FeedSource/follow(after:)`` of ``AppDatabase/presenceEventSource(matching:feed:)``).
///   - clock: the long-polls, the switch deadlines, the `away` timer, webhook retries and the
///     watchdog pings wait on it.
///   - wallClock: the time of day batches are received and walk surveys start and arrive at.
///   - tls: serve HTTPS with this context (``TLSFiles/makeContext()``); nil serves HTTP.
///   - mqttTLS: for an `mqtts://` broker (``MQTTSettings/makeTLSContext()``).
///   - mqttStatus: where the MQTT publisher reports; tests pass one to wait on.
///   - expectedErrors: estimates the radio map's expected errors in the background; tests pass one
///     to wait on or to hold.
///   - svgPlans: reads SVG plans, uploaded and stored; nil reads them with the standard budget
///     (``SVGBudget/standard(maxBytes:)`` of `settings.maxPlanBytes`). Tests pass one to hold.
///   - onServerRunning: called with the bound port once the server listens (port 0 picks one),
///     after systemd has been told `READY=1`.
///   - onLeadership: told this instance's standing after each try in a cluster's elections on
///     PostgreSQL (`integrations`, `retention`, `mqtt`; ``ClusterLeaderService``); tests wait on it.
func buildApplication(
    settings: Settings,
    database: AppDatabase,
    logger: Logger,
    adminFiles: AdminFiles? = nil,
    visitFiles: AdminFiles? = nil,
    metrics: SwitchdMetrics = SwitchdMetrics(),
    authThrottle: FailedAuthThrottle = FailedAuthThrottle(),
    systemd: SystemdNotifier = .disabled,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    feeds: Feeds = Feeds(),
    clock: any Clock<Duration> = ContinuousClock(),
    wallClock: WallClock = .system,
    tls: NIOSSLContext? = nil,
    mqttTLS: NIOSSLContext? = nil,
    mqttStatus: MQTTStatus? = nil,
    expectedErrors: ExpectedErrorEstimates = ExpectedErrorEstimates(),
    svgPlans: SVGPlanReader? = nil,
    tagKeys: TagKeySealer = .ephemeral(),
    onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in },
    onLeadership: @escaping @Sendable (_ role: String, _ standing: Leadership) async -> Void = { _, _ in }
) -> some ApplicationProtocol {
    let hub = SwitchHub()
    let mqtt = MQTTIntegration(
        settings: settings.mqtt, tls: mqttTLS, database: database, hub: hub, feeds: feeds, metrics: metrics, logger: logger, clock: clock,
        now: wallClock.now, status: mqttStatus
    )
    let connections = ConnectionTable(
        limit: settings.maxConnections, overflow: DescriptorLimit.overflow, metrics: ConnectionMetrics(factory: metrics.factory), logger: logger
    )
    let router = buildRouter(
        settings: settings, database: database, hub: hub, feeds: feeds, adminFiles: adminFiles, visitFiles: visitFiles, metrics: metrics,
        authThrottle: authThrottle, clock: clock, logger: logger, mqtt: mqtt.status, mqttOutbox: mqtt.outbox, connections: connections,
        expectedErrors: expectedErrors, wallClock: wallClock, svgPlans: svgPlans, tagKeys: tagKeys
    )
    var app = Application(
        router: router,
        server: .switchd(table: connections, idleTimeout: settings.idleTimeout, tls: tls),
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
    func leader(_ role: String, _ services: [any Service]) -> ClusterLeaderService {
        ClusterLeaderService(
            database: database, role: role, services: services, logger: logger, clock: clock, observe: { await onLeadership(role, $0) }
        )
    }
    app.addServices(SwitchDeadlineService(database: database, hub: hub, logger: logger, clock: clock))
    if database.runsOnPostgres {
        app.addServices(ClusterFanOutService(
            database: database, hub: hub, feeds: feeds, logger: logger, clock: clock, mqttOutboxAdded: mqtt.outbox.map { _ in mqtt.status.outboxAdded }
        ))
    }
    if let checkpointer = database.checkpointer {
        app.addServices(WALCheckpointService(checkpointer: checkpointer, logger: logger))
    }
    if let keep = settings.keepHistory {
        let retention = HistoryRetentionService(database: database, keep: keep, logger: logger, clock: clock)
        if database.runsOnPostgres {
            // Once per cluster, as the integrations below.
            app.addServices(leader("retention", [retention]))
        } else {
            app.addServices(retention)
        }
    }
    let integrations = integrationServices(settings: settings, database: database, feeds: feeds, logger: logger, clock: clock)
    if database.runsOnPostgres {
        // Once per cluster: the instance that leads runs them (docs/scale-out.md).
        app.addServices(leader("integrations", integrations))
    } else {
        for service in integrations {
            app.addServices(service)
        }
    }
    if database.runsOnPostgres, !mqtt.services.isEmpty {
        // One broker session per cluster (docs/scale-out.md), in an election of its own rather
        // than the integrations': it exists only with a broker, and its session may then live on
        // another instance than presence derivation and webhooks, spreading the background work.
        // Every instance has the same client ID, so should two ever overlap (a leader that has
        // not yet seen its lock go), the broker keeps one session.
        app.addServices(leader("mqtt", mqtt.services))
    } else {
        for service in mqtt.services {
            app.addServices(service)
        }
    }
    app.addServices(DaemonServiceAdapter(service: SystemdLifecycleService(notifier: systemd, readyStatus: nil, logger: logger)))
    // Healthy while the database answers: a hung SQLite stops the pings and systemd restarts switchd.
    if let watchdog = WatchdogService(notifier: systemd, environment: environment, logger: logger, clock: clock, isHealthy: {
        (try? await database.ping()) != nil
    }) {
        app.addServices(DaemonServiceAdapter(service: watchdog))
    }
    return app
}

/// The presence derivation and the webhook outbox, their timers on `clock`.
private func integrationServices(
    settings: Settings, database: AppDatabase, feeds: Feeds, logger: Logger, clock: some Clock<Duration>
) -> [any Service] {
    [
        PresenceService(database: database, rules: settings.presence, feeds: feeds, clock: clock, logger: logger),
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

/// Every controller's routes (`logger` for what they log outside a request; `mqttOutbox` for what a scanner's delete sends the broker; `expectedErrors` for the radio map's; `connections` to
/// refuse requests on overflow connections, see ``OverloadMiddleware``), behind the metrics, response-header, error, body-limit and auth middleware. A route
/// added here must have its entry in `policy` (``RoutePolicy/standard``); without one only admins reach it.
func buildRouter(
    settings: Settings, database: AppDatabase, hub: SwitchHub, feeds: Feeds, adminFiles: AdminFiles? = nil, visitFiles: AdminFiles? = nil,
    metrics: SwitchdMetrics = SwitchdMetrics(), policy: RoutePolicy = .standard, authThrottle: FailedAuthThrottle = FailedAuthThrottle(),
    clock: any Clock<Duration> = ContinuousClock(), logger: Logger = Logger(label: "switchd"), mqtt: MQTTStatus? = nil,
    mqttOutbox: MQTTOutbox? = nil, connections: ConnectionTable? = nil, expectedErrors: ExpectedErrorEstimates = ExpectedErrorEstimates(),
    wallClock: WallClock = .system, svgPlans: SVGPlanReader? = nil, tagKeys: TagKeySealer = .ephemeral()
) -> Router<AppRequestContext> {
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
    router.add(middleware: AdminFilesMiddleware(files: adminFiles))
    router.add(middleware: AdminFilesMiddleware(files: visitFiles, prefix: "/visit/", page: "visit"))
    router.add(middleware: BodyLimitMiddleware(maxBodyBytes: settings.maxBodyBytes))
    // Router middleware runs once the route is matched, and only for routes added after it.
    router.add(middleware: AuthMiddleware(authenticator: authenticator, policy: policy, throttle: authThrottle, metrics: metrics))
    router.add(middleware: StreamLimitMiddleware(streams: streams))
    HealthController(database: database).addRoutes(to: router)
    MetricsController(database: database, metrics: metrics).addRoutes(to: router)
    ScannerCountersController(database: database, metrics: metrics).addRoutes(to: router)
    ScannersController(database: database, hub: hub).addRoutes(to: router)
    ScannerDeleteController(database: database, hub: hub, metrics: metrics, mqttOutbox: mqttOutbox).addRoutes(to: router)
    let switchWrites = SwitchWritesWaiting()
    SwitchController(database: database, hub: hub, switchWrites: switchWrites, clock: clock, keys: tagKeys).addRoutes(to: router)
    SwitchStreamController(database: database, hub: hub, subscribers: metrics.subscribers(feed: "switch")).addRoutes(to: router)
    SeedSwitchController(database: database, hub: hub).addRoutes(to: router)
    FloorsController(database: database, hub: hub).addRoutes(to: router)
    let svgPlans = svgPlans ?? SVGPlanReader(budget: .standard(maxBytes: settings.maxPlanBytes))
    FloorPlanController(database: database, maxPlanBytes: settings.maxPlanBytes, svgPlans: svgPlans).addRoutes(to: router)
    RoomsController(database: database, hub: hub).addRoutes(to: router)
    LocationsController(database: database, hub: hub).addRoutes(to: router)
    WalksController(database: database, hub: hub, wallClock: wallClock).addRoutes(to: router)
    MeasurementsController(
        database: database, ingest: IngestCoalescer(database: database, switchWrites: switchWrites, metrics: metrics.factory, logger: logger), hub: hub,
        feed: feeds.measurements, stored: metrics.measurementsStored, wallClock: wallClock
    ).addRoutes(to: router)
    MeasurementStreamController(database: database, feed: feeds.measurements, subscribers: metrics.subscribers(feed: "measurements"))
        .addRoutes(to: router)
    let radioMaps = RadioMapCache(estimates: expectedErrors)
    RadioMapController(database: database, cache: radioMaps).addRoutes(to: router)
    LocateController(
        database: database, locators: LocatorCache(maps: radioMaps), feed: feeds.positions, stored: metrics.positionsStored,
        maxReadings: settings.limits.maxLocateReadings, budget: LocateBudget(perMinute: settings.limits.locateReadingsPerMinute, clock: clock)
    ).addRoutes(to: router)
    GeoreferenceController(database: database).addRoutes(to: router)
    RoomLinksController(database: database, svgPlans: svgPlans).addRoutes(to: router)
    EmittersController(database: database).addRoutes(to: router)
    BeaconsController(database: database, hub: hub).addRoutes(to: router)
    LinksController(database: database).addRoutes(to: router)
    RoutesController(database: database, walkingSpeed: settings.walkingSpeed).addRoutes(to: router)
    PositionsController(database: database, feed: feeds.positions, stored: metrics.positionsStored).addRoutes(to: router)
    PositionStreamController(database: database, feed: feeds.positions, subscribers: metrics.subscribers(feed: "positions"))
        .addRoutes(to: router)
    TokensController(database: database).addRoutes(to: router)
    EventsController(database: database, feed: feeds.events, subscribers: metrics.subscribers(feed: "events")).addRoutes(to: router)
    WebhooksController(database: database, destinations: settings.webhookDestinations, maxWebhooks: settings.limits.maxWebhooks).addRoutes(to: router)
    IntegrationsController(database: database, mqtt: mqtt ?? MQTTStatus(broker: nil, factory: metrics.factory)).addRoutes(to: router)
    let tracker = TagTracker(database: database)
    let windows = TagWindowCloser(tracker: tracker, clock: clock, logger: logger) { [feeds] positions in
        if let last = positions.last { await feeds.tagPositions.publish(upTo: last.id) }
    }
    TagsController(database: database, hub: hub, windows: windows, maxTags: settings.limits.maxTags, keys: tagKeys).addRoutes(to: router)
    TagFeedsController(database: database, positions: feeds.tagPositions, events: feeds.tagEvents, subscribers: metrics.subscribers(feed: "tags"))
        .addRoutes(to: router)
    SightingsController(database: database, windows: windows, tracker: tracker, feeds: feeds).addRoutes(to: router)
    PlacementsController(database: database, hub: hub).addRoutes(to: router)
    LiveFeedController(database: database, hub: hub, feeds: feeds, subscribers: metrics.subscribers(feed: "live"))
        .addRoutes(to: router)
    DashboardController(database: database).addRoutes(to: router)
    return router
}
