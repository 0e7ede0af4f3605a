import Logging
import SwitchdStore

/// How one switchd process is run: where it listens, where it keeps its state, what it accepts.
struct Settings: Sendable {
    static let defaultHost = "127.0.0.1"
    static let defaultPort = 8080
    static let defaultStateDirectory = "./state/switchd"
    /// Request bodies larger than this are refused with 413 `body_too_large`.
    static let defaultMaxBodyBytes = 4 * 1024 * 1024
    /// Floor plans larger than this are refused with 413 `body_too_large`.
    static let defaultMaxPlanBytes = 8 * 1024 * 1024
    /// Metres per second a route's ETA assumes when the request does not say.
    static let defaultWalkingSpeed = 1.4
    /// Open connections allowed at once (a scanner holds two); the soft open-file limit is raised
    /// to fit them, or they are kept below it (``DescriptorLimit``).
    static let defaultMaxConnections = 10_000
    /// Long-lived streams (live feeds) one token may hold at once: a visitor link is one token
    /// shared by every visitor's phone.
    static let defaultMaxStreamsPerToken = 256
    /// Long-lived streams one client address may hold at once, scanners' aside: a guest Wi-Fi
    /// puts a building's visitors behind one address.
    static let defaultMaxStreamsPerAddress = 64
    /// Seconds a connection may sit with no request in progress before it is closed.
    static let defaultIdleTimeoutSeconds = 60.0
    /// Seconds a scanner must stay in a new room or floor before `entered`/`left` count.
    static let defaultPresenceDwellSeconds = 5.0
    /// Seconds without a position before a scanner is `away`.
    static let defaultAwayAfterSeconds = 120.0
    /// Four missed counter reports at scannerd's default 15 s.
    static let defaultScannerOfflineAfterSeconds = 60.0

    var host: String = defaultHost
    /// 0 picks a free port; the bound one is reported through `onServerRunning`.
    var port: Int = defaultPort
    var stateDirectory: String = defaultStateDirectory
    var maxBodyBytes: Int = defaultMaxBodyBytes
    var maxPlanBytes: Int = defaultMaxPlanBytes
    var walkingSpeed: Double = defaultWalkingSpeed
    var maxConnections: Int = defaultMaxConnections
    /// Caps on the live feeds one token or one address holds (``OpenStreams``).
    var streamCaps = OpenStreams.Caps(perToken: defaultMaxStreamsPerToken, perAddress: defaultMaxStreamsPerAddress)
    /// How long a connection with no request in progress stays open (a long-poll or a live feed
    /// is a request in progress).
    var idleTimeout: Duration = .seconds(defaultIdleTimeoutSeconds)
    var logLevel: Logger.Level = .info
    /// How presence events are derived from positions.
    var presence = PresenceRules(dwell: .seconds(defaultPresenceDwellSeconds), awayAfter: .seconds(defaultAwayAfterSeconds))
    /// How long without a counter report before a scanner is offline (``ScannerOfflineService``).
    var scannerOfflineAfter: Duration = .seconds(defaultScannerOfflineAfterSeconds)
    /// When a tag's or beacon's telemetry raises `batteryLow`.
    var batteryLow = BatteryLowThreshold()
    /// How long no scanner that heard a beacon may go without hearing it before it is silent.
    var beaconSilentAfter: Duration = .seconds(defaultBeaconSilentAfterSeconds)
    static let defaultBeaconSilentAfterSeconds = 3600.0
    /// How long a placed scanner must not have heard a beacon for hearing it to be news (`beaconNewScanner`).
    var beaconNewAfter: Duration = .seconds(defaultBeaconNewAfterSeconds)
    static let defaultBeaconNewAfterSeconds = 604_800.0
    /// When a beacon's signal has faded.
    var beaconFade = BeaconFadeRule()
    /// When failed webhook deliveries are retried and given up.
    var webhookRetry = WebhookRetryPolicy()
    /// Which addresses webhooks may be created for and delivered to.
    var webhookDestinations = WebhookDestinationPolicy()
    /// Where to publish over MQTT; nil publishes nothing.
    var mqtt: MQTTSettings?
    /// How long history is kept (``HistoryRetentionService``); nil keeps it for ever.
    var keepHistory: Duration?
    /// How many tags and webhooks may exist, and how much locating a token may ask for.
    var limits = Limits()
}
