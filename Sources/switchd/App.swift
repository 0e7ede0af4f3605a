import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Scan

/// switchd: serves the scan switches, the survey and the measurements over HTTP.
@main
struct SwitchdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchd", abstract: "Serves floorscan's scan switches, survey and measurements over HTTP."
    )

    @Option(help: "Address to listen on.") var host = Settings.defaultHost
    @Option(help: "Port to listen on; 0 picks a free one.") var port = Settings.defaultPort
    @Option(help: "Folder for switchd.sqlite.") var stateDir = Settings.defaultStateDirectory
    @Option(help: "Largest request body accepted, in bytes.") var maxBodyBytes = Settings.defaultMaxBodyBytes
    @Option(help: "Largest floor-plan image accepted, in bytes.") var maxPlanBytes = Settings.defaultMaxPlanBytes
    @Option(help: "Folder of the admin page served at /admin/. (default: ../share/floorscan/admin beside the executable, else the source tree's share/admin)")
    var adminDir: String?
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
            host: host, port: port, stateDirectory: stateDir, maxBodyBytes: maxBodyBytes, maxPlanBytes: maxPlanBytes,
            walkingSpeed: walkingSpeed, logLevel: logLevel
        )
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = settings.logLevel
            return handler
        }
        let logger = Logger(label: "switchd")
        let database = try AppDatabase.open(stateDirectory: settings.stateDirectory)
        let adminFiles = try loadAdminFiles(logger: logger)
        let app = buildApplication(settings: settings, database: database, logger: logger, adminFiles: adminFiles) { port in
            print("switchd listening on http://\(settings.host):\(port)")
            fflush(nil)
        }
        try await app.runService()
    }
}

extension SwitchdCommand {
    /// The admin page's files: from `--admin-dir` (a bad folder stops switchd), else from the
    /// first folder ``AdminDirectory/search(executable:)`` finds; none found leaves
    /// the page out, with a warning.
    func loadAdminFiles(logger: Logger) throws -> AdminFiles? {
        if let adminDir {
            return try AdminFiles(directory: adminDir)
        }
        guard let found = AdminDirectory.search() else {
            logger.warning("No admin page folder found; /admin/ answers 404. Give one with --admin-dir.")
            return nil
        }
        let files = try AdminFiles(directory: found)
        logger.info("Admin page", metadata: ["folder": "\(files.directory)", "files": "\(files.paths.count)"])
        return files
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
