import DaemonSupport
import Foundation
import Logging
import NIOSSL
import SwitchdStore

/// Everything switchd is built from: its settings and store, and what `main` and the tests choose
/// differently (clocks, feeds, metrics, TLS, the pages, hooks to wait on). ``buildApplication(_:)``
/// and ``buildRouter(_:hub:mqtt:mqttOutbox:connections:policy:)`` take this one value; a test
/// sets the few fields it cares about and leaves the rest at `main`'s defaults.
struct SwitchdDependencies: Sendable {
    var settings: Settings
    var database: AppDatabase
    var logger: Logger
    /// The admin page served at `/admin/`; nil answers 404 there.
    var adminFiles: AdminFiles?
    /// The visitor page served at `/visit/`; nil answers 404 there.
    var visitFiles: AdminFiles?
    var metrics: SwitchdMetrics
    /// Counts failed authentications per client address; tests give it a clock they move.
    var authThrottle: FailedAuthThrottle
    /// Where readiness, status and watchdog pings go; does nothing outside systemd.
    var systemd: SystemdNotifier
    var environment: [String: String]
    /// The live feeds; ``Feeds/events`` announces each presence event stored (follow it with
    /// ``FeedSource/follow(after:)`` of ``AppDatabase/presenceEventSource(matching:feed:)``).
    var feeds: Feeds
    /// The long-polls, the switch deadlines, the `away` timer, webhook retries and the watchdog
    /// pings wait on it.
    var clock: any Clock<Duration>
    /// The time of day batches are received and walk surveys start and arrive at.
    var wallClock: WallClock
    /// Serve HTTPS (and HTTP/2) with this context (``TLSFiles/makeContext()``); nil serves HTTP.
    var tls: NIOSSLContext?
    /// With ``tls``: its certificate's public-key pin (``TLSFiles/publicKeyPin()``), shown with
    /// each enrolment code.
    var tlsPin: String?
    /// For an `mqtts://` broker (``MQTTSettings/makeTLSContext()``).
    var mqttTLS: NIOSSLContext?
    /// Where the MQTT publisher reports; tests pass one to wait on.
    var mqttStatus: MQTTStatus?
    /// Estimates the radio map's expected errors in the background; tests pass one to wait on or
    /// to hold.
    var expectedErrors: ExpectedErrorEstimates
    /// Reads SVG plans, uploaded and stored; nil reads them with the standard budget
    /// (``SVGBudget/standard(maxBytes:)`` of `settings.maxPlanBytes`). Tests pass one to hold.
    var svgPlans: SVGPlanReader?
    /// Seals and opens phones' identity keys (``TagKeySealer``): `main` reads its key from the
    /// state directory (``TagKeyFile``); tests get a key of their own that dies with them.
    var tagKeys: TagKeySealer
    /// Called with the bound port once the server listens (port 0 picks one), after systemd has
    /// been told `READY=1`.
    var onServerRunning: @Sendable (_ port: Int) async -> Void
    /// Told this instance's standing after each try in a cluster's elections on PostgreSQL
    /// (`integrations`, `retention`, `mqtt`; ``ClusterLeaderService``); tests wait on it.
    var onLeadership: @Sendable (_ role: String, _ standing: Leadership) async -> Void

    init(
        settings: Settings, database: AppDatabase, logger: Logger, adminFiles: AdminFiles? = nil, visitFiles: AdminFiles? = nil,
        metrics: SwitchdMetrics = SwitchdMetrics(), authThrottle: FailedAuthThrottle = FailedAuthThrottle(),
        systemd: SystemdNotifier = .disabled, environment: [String: String] = ProcessInfo.processInfo.environment,
        feeds: Feeds = Feeds(), clock: any Clock<Duration> = ContinuousClock(), wallClock: WallClock = .system,
        tls: NIOSSLContext? = nil, tlsPin: String? = nil, mqttTLS: NIOSSLContext? = nil, mqttStatus: MQTTStatus? = nil,
        expectedErrors: ExpectedErrorEstimates = ExpectedErrorEstimates(), svgPlans: SVGPlanReader? = nil,
        tagKeys: TagKeySealer = .ephemeral(),
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in },
        onLeadership: @escaping @Sendable (_ role: String, _ standing: Leadership) async -> Void = { _, _ in }
    ) {
        self.settings = settings
        self.database = database
        self.logger = logger
        self.adminFiles = adminFiles
        self.visitFiles = visitFiles
        self.metrics = metrics
        self.authThrottle = authThrottle
        self.systemd = systemd
        self.environment = environment
        self.feeds = feeds
        self.clock = clock
        self.wallClock = wallClock
        self.tls = tls
        self.tlsPin = tlsPin
        self.mqttTLS = mqttTLS
        self.mqttStatus = mqttStatus
        self.expectedErrors = expectedErrors
        self.svgPlans = svgPlans
        self.tagKeys = tagKeys
        self.onServerRunning = onServerRunning
        self.onLeadership = onLeadership
    }
}
