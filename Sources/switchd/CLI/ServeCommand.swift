import ArgumentParser
import DaemonSupport
import Foundation
import Hummingbird
import Logging
import Metrics
import NIOSSL
import ScanContract
import SwitchdStore

/// `switchd [serve]`: the HTTP service. Makes sure an admin token exists before it listens.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the v1 API (the default subcommand: `switchd --port 8080` runs this)."
    )

    @OptionGroup var configFile: ConfigFileOption
    @Option(help: "Address to listen on.") var host = Settings.defaultHost
    @Option(help: "Port to listen on; 0 picks a free one.") var port = Settings.defaultPort
    @Option(help: ArgumentHelp(
        "Once listening, write the port to this file (one line).",
        discussion: "With --port 0, how whoever started switchd learns where it listens; the standard output also says, in a line 'switchd listening on http://HOST:PORT'."
    ))
    var portFile: String?
    @Option(help: "Folder for switchd.sqlite and admin.token.") var stateDir = Settings.defaultStateDirectory
    @Option(help: ArgumentHelp(
        "A PostgreSQL database to keep the state in instead of <state-dir>/switchd.sqlite: postgres://USER@HOST[:PORT]/DATABASE.",
        discussion: "For several switchd instances behind one load balancer (docs/scale-out.md). A Unix socket: postgres://USER@/DATABASE?host=/run/postgresql. Serves every route; presence, webhook deliveries, --keep-days retention and the MQTT bridge (one broker session) run on one instance at a time."
    ))
    var database: String?
    @Option(help: "Largest request body accepted, in bytes.") var maxBodyBytes = Settings.defaultMaxBodyBytes
    @Option(help: "Largest floor-plan image accepted, in bytes.") var maxPlanBytes = Settings.defaultMaxPlanBytes
    @Option(help: "Folder of the admin page served at /admin/. (default: ../share/floorscan/admin beside the executable, else the source tree's share/admin)")
    var adminDir: String?
    @Option(help: "Folder of the visitor page served at /visit/. (default: ../share/floorscan/visit beside the executable, else the source tree's share/visit)")
    var visitDir: String?
    @Option(help: "Walking speed routes assume, metres per second (0.1 to 10).") var walkingSpeed = Settings.defaultWalkingSpeed
    @Option(help: ArgumentHelp(
        "Most connections open at once (a scanner holds two).",
        discussion: "At the limit the connection idle longest is closed to make room. The soft open-file limit is raised up to the hard one to fit them; past the hard one this is lowered at start."
    ))
    var maxConnections = Settings.defaultMaxConnections
    @Option(help: ArgumentHelp(
        "Most live feeds (event streams) one token may hold at once.",
        discussion: "A stream past it is answered 429 too_many_streams. A visitor link is one token shared by every visitor's phone."
    ))
    var maxStreamsPerToken = Settings.defaultMaxStreamsPerToken
    @Option(help: ArgumentHelp(
        "Most live feeds (event streams) one client address may hold at once; scanners' streams are not counted.",
        discussion: "A stream past it is answered 429 too_many_streams."
    ))
    var maxStreamsPerAddress = Settings.defaultMaxStreamsPerAddress
    @Option(help: "Seconds a connection may stay open with no request in progress (long-polls and live feeds are requests in progress).")
    var idleTimeout = Settings.defaultIdleTimeoutSeconds
    @Option(help: "PEM certificate chain to serve HTTPS with (needs --tls-key); without it switchd serves plain HTTP.")
    var tlsCertificate: String?
    @Option(help: "PEM private key of --tls-certificate.")
    var tlsKey: String?
    @Option(help: ArgumentHelp(
        "Seconds a scanner must stay in a new room or floor before it counts as entered (presence events).",
        discussion: "Positions wobbling across a wall for less than this change nothing. 0 counts every change at once."
    ))
    var presenceDwell = Settings.defaultPresenceDwellSeconds
    @Option(help: "Seconds without a position from a scanner before it is away (presence events).")
    var awayAfter = Settings.defaultAwayAfterSeconds
    @Option(help: "Seconds without a located window before a tag is away (presence events); --away-after when left out.")
    var tagAwayAfter: Double?
    @Option(help: ArgumentHelp(
        "Seconds without a counter report from a scanner before it is offline (scannerOffline event).",
        discussion: "scannerd reports every 15 s by default (--counters-interval-s): the default misses four reports."
    ))
    var scannerOfflineAfter = Settings.defaultScannerOfflineAfterSeconds
    @Option(help: ArgumentHelp(
        "Battery voltage in mV below which a tag's or beacon's Eddystone-TLM telemetry raises batteryLow.",
        discussion: "Once per crossing: the battery must read 100 mV above it before another crossing raises the event again."
    ))
    var batteryLowMillivolts = BatteryLowThreshold.defaultMillivolts
    @Option(help: ArgumentHelp(
        "Seconds no scanner that used to hear a registered beacon may go without hearing it, while hearing others, before it is silent (beaconSilent event).",
        discussion: "Measured on the sightings' own times; the default is an hour."
    ))
    var beaconSilentAfter = Settings.defaultBeaconSilentAfterSeconds
    @Option(help: ArgumentHelp(
        "dB by which the scanners must hear a beacon weaker than over the window before for it to have faded (beaconFaded event).",
        discussion: "The median over the scanners of each one's drop in median RSSI; re-armed under half of it."
    ))
    var beaconFadeDb = BeaconFadeRule.defaultDecibels
    @Option(help: "Seconds of each of the two windows whose RSSI a fade compares (beaconFaded event).")
    var beaconFadeWindow = BeaconFadeRule.defaultWindowSeconds
    @Option(help: ArgumentHelp(
        "Seconds a placed scanner must not have heard a registered beacon, while reporting sightings, for hearing it to be news (beaconNewScanner event).",
        discussion: "Measured on the sightings' own times; the default is a week."
    ))
    var beaconNewAfter = Settings.defaultBeaconNewAfterSeconds
    @Option(help: ArgumentHelp(
        "Attempts at a webhook delivery before it is given up (dead).",
        discussion: "Retries wait 1 s, doubling up to 1 h: the default 20 keeps a delivery for about 8 hours of a receiver being down."
    ))
    var webhookMaxAttempts = WebhookRetryPolicy.defaultMaxAttempts
    @Flag(help: ArgumentHelp(
        "Let webhooks reach loopback and private addresses (127/8, ::1, 10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7).",
        discussion: "For a receiver on switchd's own host or LAN. Link-local addresses (169.254/16, fe80::/10, where cloud metadata services live) are never reached."
    ))
    var webhookAllowPrivate = false
    @Option(help: ArgumentHelp(
        "Days of history to keep; older history is deleted every hour. (default: kept for ever)",
        discussion: "Goes: readings taken in locate mode, positions, tag positions and sightings, presence events and finished webhook deliveries. Stays: survey readings (the radio map), each scanner's and tag's latest position, each tag's latest sighting, and deliveries still pending."
    ))
    var keepDays: Int?
    @Option(help: "trace, debug, info, notice, warning, error or critical.") var logLevel: Logger.Level = .info
    @Option(help: ArgumentHelp(
        "A file holding the admin bearer token to accept (stored as an admin token if new).",
        discussion: "Without it, switchd makes an admin token on a start that finds none usable, in <state-dir>/admin.token (mode 0600)."
    ))
    var adminTokenFile: String?
    @OptionGroup(title: "MQTT (off unless --mqtt-broker is given; docs/mqtt.md)") var mqtt: MQTTOptions
    @OptionGroup(title: "Limits") var limits: LimitsOptions

    func validate() throws {
        do {
            try RouteRequest.validateWalkingSpeed(walkingSpeed, field: "--walking-speed")
        } catch {
            throw ArgumentParser.ValidationError("\(error)")
        }
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ArgumentParser.ValidationError("--tls-certificate and --tls-key go together: give both for HTTPS, neither for HTTP")
        }
        guard maxConnections > 0 else {
            throw ArgumentParser.ValidationError("--max-connections must be at least 1, got \(maxConnections)")
        }
        guard maxStreamsPerToken > 0, maxStreamsPerAddress > 0 else {
            throw ArgumentParser.ValidationError(
                "--max-streams-per-token and --max-streams-per-address must be at least 1, got \(maxStreamsPerToken) and \(maxStreamsPerAddress)"
            )
        }
        guard presenceDwell >= 0, presenceDwell.isFinite else {
            throw ArgumentParser.ValidationError("--presence-dwell must be a number of seconds, 0 or more, got \(presenceDwell)")
        }
        guard awayAfter > 0, awayAfter.isFinite else {
            throw ArgumentParser.ValidationError("--away-after must be a positive number of seconds, got \(awayAfter)")
        }
        if let tagAwayAfter, !(tagAwayAfter > 0 && tagAwayAfter.isFinite) {
            throw ArgumentParser.ValidationError("--tag-away-after must be a positive number of seconds, got \(tagAwayAfter)")
        }
        guard scannerOfflineAfter > 0, scannerOfflineAfter.isFinite else {
            throw ArgumentParser.ValidationError("--scanner-offline-after must be a positive number of seconds, got \(scannerOfflineAfter)")
        }
        guard (1...65_535).contains(batteryLowMillivolts) else {
            throw ArgumentParser.ValidationError("--battery-low-millivolts must be 1 to 65535 mV, got \(batteryLowMillivolts)")
        }
        guard beaconSilentAfter >= 1, beaconSilentAfter.isFinite else {
            throw ArgumentParser.ValidationError("--beacon-silent-after must be 1 s or more, got \(beaconSilentAfter)")
        }
        guard beaconNewAfter >= 60, beaconNewAfter.isFinite else {
            throw ArgumentParser.ValidationError("--beacon-new-after must be 60 s or more, got \(beaconNewAfter)")
        }
        guard beaconFadeDb > 0, beaconFadeDb.isFinite else {
            throw ArgumentParser.ValidationError("--beacon-fade-db must be a positive number of dB, got \(beaconFadeDb)")
        }
        guard beaconFadeWindow >= 60, beaconFadeWindow.isFinite else {
            throw ArgumentParser.ValidationError("--beacon-fade-window must be 60 s or more, got \(beaconFadeWindow)")
        }
        guard webhookMaxAttempts > 0 else {
            throw ArgumentParser.ValidationError("--webhook-max-attempts must be at least 1, got \(webhookMaxAttempts)")
        }
        if let database {
            do {
                _ = try PostgresAddress(url: database)
            } catch {
                throw ArgumentParser.ValidationError("--database: \(error)")
            }
        }
        if let keepDays, keepDays < 1 {
            throw ArgumentParser.ValidationError("--keep-days must be at least 1, got \(keepDays)")
        }
        guard idleTimeout > 0, idleTimeout.isFinite else {
            throw ArgumentParser.ValidationError("--idle-timeout must be a positive number of seconds, got \(idleTimeout)")
        }
        do {
            _ = try mqtt.settings(readingSecrets: false)
        } catch {
            throw ArgumentParser.ValidationError("\(error)")
        }
    }

    func run() async throws {
        var configured = Settings(
            host: host, port: port, stateDirectory: stateDir, maxBodyBytes: maxBodyBytes, maxPlanBytes: maxPlanBytes,
            walkingSpeed: walkingSpeed, logLevel: logLevel, mqtt: try mqtt.settings(readingSecrets: true)
        )
        DaemonLogging.bootstrap(level: configured.logLevel)
        let logger = Logger(label: "switchd")
        configured.maxConnections = DescriptorLimit.current()
            .raisingSoftLimit(toFit: maxConnections, logger: logger)
            .connectionLimit(requested: maxConnections, logger: logger)
        configured.streamCaps = OpenStreams.Caps(perToken: maxStreamsPerToken, perAddress: maxStreamsPerAddress)
        configured.idleTimeout = Duration(secondsRoundedUp: idleTimeout)
        configured.presence = PresenceRules(
            dwell: Duration(secondsRoundedUp: presenceDwell), awayAfter: Duration(secondsRoundedUp: awayAfter),
            tagAwayAfter: tagAwayAfter.map(Duration.init(secondsRoundedUp:))
        )
        configured.scannerOfflineAfter = Duration(secondsRoundedUp: scannerOfflineAfter)
        configured.batteryLow = BatteryLowThreshold(millivolts: batteryLowMillivolts)
        configured.beaconSilentAfter = Duration(secondsRoundedUp: beaconSilentAfter)
        configured.beaconNewAfter = Duration(secondsRoundedUp: beaconNewAfter)
        configured.beaconFade = BeaconFadeRule(decibels: beaconFadeDb, window: Duration(secondsRoundedUp: beaconFadeWindow))
        configured.webhookRetry.maxAttempts = webhookMaxAttempts
        configured.webhookDestinations.allowsPrivate = webhookAllowPrivate
        configured.keepHistory = keepDays.map { .seconds(Int64($0) * 86_400) }
        configured.limits = limits.limits
        let settings = configured
        // Unusable files stop switchd before it listens, naming the file.
        let tls = try tlsFiles?.makeContext()
        let tlsPin = try tlsFiles?.publicKeyPin()
        let mqttTLS = try settings.mqtt?.makeTLSContext()
        let metrics = SwitchdMetrics()
        // Whatever a library records with swift-metrics lands in the same registry as switchd's own.
        MetricsSystem.bootstrap(metrics.factory)
        let systemd = try SystemdNotifier()
        // Phones' keys are sealed in the store under this file's key (made on the first start).
        let tagKeys = try TagKeyFile.sealer(stateDirectory: settings.stateDirectory)
        let adminFiles = try loadPageFiles(adminDir, page: "admin", logger: logger)
        let visitFiles = try loadPageFiles(visitDir, page: "visit", logger: logger)
        let database = try await openDatabase(stateDirectory: settings.stateDirectory)
        do {
            try await serve(
                settings: settings, database: database, logger: logger, metrics: metrics, systemd: systemd, tls: tls, tlsPin: tlsPin,
                mqttTLS: mqttTLS, tagKeys: tagKeys, adminFiles: adminFiles, visitFiles: visitFiles
            )
        } catch {
            // A store left open would trap on PostgreSQL (a pooled connection must be closed before it goes).
            try? await database.close()
            throw error
        }
        // PostgreSQL's pooled connections are closed before they go (SQLite's close with the store).
        try? await database.close()
    }

    /// Runs switchd over the open `database` until it is told to stop.
    private func serve(
        settings: Settings, database: AppDatabase, logger: Logger, metrics: SwitchdMetrics, systemd: SystemdNotifier, tls: NIOSSLContext?,
        tlsPin: String?, mqttTLS: NIOSSLContext?, tagKeys: TagKeySealer, adminFiles: AdminFiles?, visitFiles: AdminFiles?
    ) async throws {
        switch try await AdminTokenBootstrap.run(database: database, stateDirectory: settings.stateDirectory, configuredFile: adminTokenFile) {
        case .configured(let path):
            logger.info("Admin token taken from --admin-token-file", metadata: ["file": "\(path)"])
        case .created(let path):
            logger.notice("No admin token was usable: made one; it is in the file (mode 0600)", metadata: ["file": "\(path)"])
        case .existing:
            break
        }
        TagKeyFile.checkOpens(try await database.sealedTagKeys(), with: tagKeys, stateDirectory: settings.stateDirectory, logger: logger)
        try await MQTTClusterAgreement.check(settings.mqtt, database: database, now: Date())
        let app = buildApplication(SwitchdDependencies(
            settings: settings, database: database, logger: logger, adminFiles: adminFiles, visitFiles: visitFiles,
            metrics: metrics, systemd: systemd, tls: tls, tlsPin: tlsPin, mqttTLS: mqttTLS, tagKeys: tagKeys
        ) { [portFile] port in
            logger.notice("Listening", metadata: ["host": "\(settings.host)", "port": "\(port)"])
            if let portFile { PortFile.write(port, to: portFile, logger: logger) }
            print("switchd listening on \(tls == nil ? "http" : "https")://\(settings.host):\(port)")
            fflush(nil)
        })
        try await app.runService()
    }
}

extension ServeCommand {
    /// Where the state is kept: ``database`` when given, else the SQLite file in `stateDirectory`.
    var databaseLocation: DatabaseLocation {
        get throws {
            guard let database else { return .sqlite(stateDirectory: stateDir) }
            return .postgres(try PostgresAddress(url: database))
        }
    }

    /// Opens the store at ``databaseLocation``: the SQLite file, which checkpoints its WAL in the
    /// background (``WALCheckpointService``), or the PostgreSQL database, migrated to the current
    /// schema (instances started together migrate one after another).
    ///
    /// - Throws: what ``AppDatabase/open(stateDirectory:checkpointsInBackground:)`` throws for the
    ///   SQLite file; for PostgreSQL, ``DatabaseLocationError`` with the driver's error when the
    ///   server cannot be reached or a migration fails, prefixed with `--database`.
    func openDatabase(stateDirectory: String) async throws -> AppDatabase {
        switch try databaseLocation {
        case .sqlite:
            return try AppDatabase.open(stateDirectory: stateDirectory, checkpointsInBackground: true)
        case .postgres(let address):
            do {
                return try await AppDatabase.open(postgres: address)
            } catch {
                throw DatabaseLocationError("--database: cannot open the PostgreSQL database: \(String(reflecting: error))")
            }
        }
    }
}

extension ServeCommand {
    /// `--tls-certificate` and `--tls-key`, when given (``validate()`` makes sure both are).
    var tlsFiles: TLSFiles? {
        guard let tlsCertificate, let tlsKey else { return nil }
        return TLSFiles(certificatePath: tlsCertificate, keyPath: tlsKey)
    }

    /// A page's files (`admin`, `visit`): from `configured` (`--admin-dir`, `--visit-dir`; a bad
    /// folder stops switchd), else from the first folder ``AdminDirectory/search(executable:page:)``
    /// finds; none found leaves the page out, with a warning.
    func loadPageFiles(_ configured: String?, page: String, logger: Logger) throws -> AdminFiles? {
        if let configured {
            return try AdminFiles(directory: configured)
        }
        guard let found = AdminDirectory.search(page: page) else {
            logger.warning("No \(page) page folder found; /\(page)/ answers 404. Give one with --\(page)-dir.")
            return nil
        }
        let files = try AdminFiles(directory: found)
        logger.info("Page", metadata: ["page": "\(page)", "folder": "\(files.directory)", "files": "\(files.paths.count)"])
        return files
    }
}
