import ArgumentParser
import DaemonSupport
import Foundation
import Hummingbird
import Logging
import Metrics
import Scan

/// switchd: serves the scan switches, the survey and the measurements over HTTP.
@main
struct SwitchdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchd", abstract: "Serves floorscan's scan switches, survey and measurements over HTTP."
    )

    /// `switchd --config FILE` reads its settings from the file first.
    static func main() async {
        await main(configuring: Self.self)
    }

    @OptionGroup var configFile: ConfigFileOption
    @Option(help: "Address to listen on.") var host = Settings.defaultHost
    @Option(help: "Port to listen on; 0 picks a free one.") var port = Settings.defaultPort
    @Option(help: "Folder for switchd.sqlite.") var stateDir = Settings.defaultStateDirectory
    @Option(help: "Largest request body accepted, in bytes.") var maxBodyBytes = Settings.defaultMaxBodyBytes
    @Option(help: "Walking speed routes assume, metres per second (0.1 to 10).") var walkingSpeed = Settings.defaultWalkingSpeed
    @Option(help: "trace, debug, info, notice, warning, error or critical.") var logLevel: Logger.Level = .info

    func validate() throws {
        do {
            try RouteRequest.validateWalkingSpeed(walkingSpeed, field: "--walking-speed")
        } catch {
            throw ArgumentParser.ValidationError("\(error)")
        }
    }

    func run() async throws {
        let settings = Settings(
            host: host, port: port, stateDirectory: stateDir, maxBodyBytes: maxBodyBytes, walkingSpeed: walkingSpeed, logLevel: logLevel
        )
        DaemonLogging.bootstrap(level: settings.logLevel)
        let logger = Logger(label: "switchd")
        let metrics = SwitchdMetrics()
        // Whatever a library records with swift-metrics lands in the same registry as switchd's own.
        MetricsSystem.bootstrap(metrics.factory)
        let systemd = try SystemdNotifier()
        let database = try AppDatabase.open(stateDirectory: settings.stateDirectory)
        let app = buildApplication(settings: settings, database: database, logger: logger, metrics: metrics, systemd: systemd) { port in
            print("switchd listening on http://\(settings.host):\(port)")
            fflush(nil)
        }
        try await app.runService()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
