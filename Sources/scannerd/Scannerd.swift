import DaemonSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Logging
import Positioning
import ScanContract

/// scannerd wired together: the spool, the uploader, the position poster, the radio-map
/// refresher, the scan controller, the switch watcher, the counter reporter, with `--listen` the
/// shared BLE loop (``BLEFanOut``) and the listening role beside the scan controller, and, under systemd,
/// the watchdog and the
/// readiness/stop notices, run as one service group. `scannerd run` and the tests both build it here.
///
/// The group starts the services in that order and, on SIGTERM or SIGINT, stops them in the
/// reverse order: systemd hears `STOPPING=1`, the watcher stops listening, the controller ends
/// the scan session, the uploader stops, and the spool seals the open batch to disk last.
struct Scannerd {
    let services: [any DaemonService]
    let spool: Spool
    let events: EventLog
    /// What the real radios have done; zero with the simulated source.
    let radioCounters = RadioCounters()
    let logger: Logger
    let counters: ScannerdCounters
    /// The settings in effect: the local ones overridden by switchd's.
    let settings: LiveSettings
    /// Held while this value lives: one scannerd per state directory.
    private let lock: DirectoryLock

    /// Builds every part. Throws when the state directory cannot be made or is in use by another
    /// scannerd, the event log cannot be opened, the spool cannot recover what a previous run left,
    /// or `--radio hardware` finds no radio.
    ///
    /// - Parameters:
    ///   - systemd: told `READY=1` once every service has started, and pinged by the watchdog
    ///     while scanning moves, when `environment` has `WATCHDOG_USEC`.
    ///   - clock: every wait and interval of the services runs on it (the spool's and the
    ///     uploader's excepted, which keep their own).
    init(
        _ configuration: ScannerdConfiguration, http: any HTTPClient, logger: Logger,
        systemd: SystemdNotifier = .disabled, environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: any Clock<Duration> = ContinuousClock()
    ) throws {
        lock = try Self.claimStateDirectory(configuration)
        let events = try EventLog(configuration.events, logger: logger)
        let counters = ScannerdCounters(radio: radioCounters)
        let spool = try Spool(
            directory: configuration.spoolDirectory,
            settings: Spool.Settings(
                scannerID: configuration.scannerID, batchSize: configuration.batchSize, batchAge: configuration.batchAge,
                maxBytes: configuration.spoolMaxBytes
            ),
            events: events, logger: logger, counters: counters, clock: clock
        )
        let api = SwitchdAPI(
            baseURL: configuration.switchd, client: http, token: configuration.token, radioMapLimit: configuration.radioMapMaxBytes
        )
        let live = LiveSettings(
            local: LiveSettings.Local(
                ble: configuration.hardware.ble, locateWindowMs: Double(configuration.locate.bleWindow / .milliseconds(1)),
                listen: configuration.listen.enabled, listenWindowS: configuration.listen.windowSeconds, logLevel: configuration.logLevel
            ),
            listenRoleBuilt: configuration.listen.enabled, bleShared: configuration.listen.enabled
        )
        self.settings = live
        var radio = try Self.radio(configuration, api: api, counters: radioCounters, events: events, logger: logger, clock: clock, live: live)
        var listening: (fanOut: BLEFanOut, role: any DaemonService, watchLists: AsyncStream<[TagIdentity]>.Continuation)?
        if configuration.listen.enabled {
            if let ble = radio.ble {
                let fanOut = BLEFanOut(source: ble, logger: logger)
                radio = SharedBLERadio(radio: radio, fanOut: fanOut)
                let (lists, listContinuation) = AsyncStream.makeStream(of: [TagIdentity].self, bufferingPolicy: .bufferingNewest(1))
                var forwarder = TrackForwarder(api: api, scannerID: configuration.scannerID, logger: logger)
                forwarder.windowLength = configuration.listen.windowSeconds
                forwarder.clock = clock
                forwarder.events = events
                let role = TrackService(
                    forwarder: forwarder, hearings: fanOut.hearings(), watching: .pushed(lists), waitsForShutdown: true, logger: logger
                )
                listening = (fanOut, role, listContinuation)
            } else {
                logger.error("--listen needs a Bluetooth receiver and the radio has none; not listening")
            }
        }
        let (switches, switchContinuation) = AsyncStream.makeStream(of: ScanSwitch.self, bufferingPolicy: .bufferingNewest(1))
        let (positions, positionContinuation) = AsyncStream.makeStream(
            of: NewPosition.self, bufferingPolicy: .bufferingNewest(PositionPoster.queueLimit)
        )
        let maps = RadioMapRefresher(
            cache: RadioMapCache(path: configuration.radioMapPath, api: api, logger: logger),
            interval: configuration.locate.mapRefreshInterval, clock: clock
        )
        let positioner = Positioner(
            scannerID: configuration.scannerID, settings: configuration.locate, maps: maps,
            positions: positionContinuation, events: events, logger: logger, live: live
        )
        let heartbeat = ScanHeartbeat(clock: clock)
        var services: [any DaemonService] = [
            spool,
            Uploader(spool: spool, api: api, events: events, logger: logger, counters: counters, clock: clock),
            PositionPoster(positions: positions, api: api, logger: logger, clock: clock),
            maps,
        ]
        if let listening { services.append(listening.fanOut) }
        services.append(ScanController(
            switches: switches, radio: radio, spool: spool, positioner: positioner, events: events, logger: logger,
            counters: counters, heartbeat: heartbeat, clock: clock, settings: live
        ))
        if let listening { services.append(listening.role) }
        services += [
            SwitchWatcher(
                api: api, scannerID: configuration.scannerID, store: SwitchStore(path: configuration.switchPath),
                switches: switchContinuation, events: events, logger: logger, clock: clock, watchLists: listening?.watchLists
            ),
            CounterReporter(
                counters: counters, spool: spool, api: api, scannerID: configuration.scannerID,
                interval: configuration.countersInterval, logger: logger, clock: clock, settings: live
            ),
        ]
        if let watchdog = WatchdogService(
            notifier: systemd, environment: environment, logger: logger, clock: clock, isHealthy: { heartbeat.isAlive() }
        ) {
            services.append(watchdog)
        }
        let status = "scanner \(configuration.scannerID) reporting to \(Self.withoutCredentials(configuration.switchd))"
        services.append(SystemdLifecycleService(notifier: systemd, readyStatus: status, logger: logger))
        self.services = services
        self.counters = counters
        self.spool = spool
        self.events = events
        self.logger = logger
    }

    /// Runs until SIGTERM or SIGINT (graceful: the open batch is sealed) or until a service fails.
    func run() async throws {
        try await DaemonServiceGroup(services: services, logger: logger).run()
    }

    /// `url` without any user or password in it: `systemctl status` shows the status line to anyone.
    static func withoutCredentials(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "switchd" }
        components.user = nil
        components.password = nil
        return components.string ?? "switchd"
    }

    /// Creates the state directory and takes its lock; throws when another scannerd holds it.
    private static func claimStateDirectory(_ configuration: ScannerdConfiguration) throws -> DirectoryLock {
        try FileSystem.makeDirectories(configuration.stateDirectory)
        // A plain catch, not `catch where`: Debian's Swift 6.2.3 crashes on a `catch where` around this
        // typed-throws initializer inside a plain `throws` function (SIL verification failure).
        do {
            return try DirectoryLock(path: configuration.lockPath)
        } catch {
            if error.errno == EWOULDBLOCK { throw ScannerdError.stateDirectoryInUse(configuration.stateDirectory) }
            throw error
        }
    }

    /// The radio source `--radio` asks for, said once in the log with the reason.
    private static func radio(
        _ configuration: ScannerdConfiguration, api: SwitchdAPI, counters: RadioCounters, events: EventLog, logger: Logger,
        clock: any Clock<Duration>, live: LiveSettings
    ) throws -> any RadioSource {
        let hardware = configuration.hardware
        let decision = try RadioDecision.decide(
            configuration.radio, adapters: .detect(), hciDevice: hardware.hciDevice, wifiInterface: hardware.wifiInterface
        )
        switch decision.source {
        case .simulated:
            let settings = configuration.simulation
            logger.info("radio source", metadata: [
                "source": "\(decision.source.name)", "why": "\(decision.reason)", "seed": "\(settings.seed)",
                "trajectory": "\(settings.trajectoryText)", "followSurvey": "\(settings.followSurvey)",
            ])
            let positions = SurveyPositions { locationID in
                let location = try await api.location(locationID, timeout: SimulatedRadio.locationTimeout)
                return PlanPoint(x: location.x, y: location.y)
            }
            return SimulatedRadio(floor: settings.floor, settings: settings, surveyPositions: positions, logger: logger, clock: clock)
        case .hardware(let bluetooth, let wifi):
            logger.info("radio source", metadata: [
                "source": "\(decision.source.name)", "why": "\(decision.reason)",
                "bluetooth": "\(bluetooth ?? "none")", "wifi": "\(wifi ?? "none")",
            ])
            return HardwareRadio(
                bluetooth: bluetooth, wifi: wifi, settings: hardware, counters: counters, events: events, logger: logger, live: live
            )
        }
    }
}

enum ScannerdError: Error, CustomStringConvertible {
    case stateDirectoryInUse(String)

    var description: String {
        switch self {
        case .stateDirectoryInUse(let path):
            "another scannerd is running with the state directory \(path); give each scannerd its own --state-dir"
        }
    }
}
