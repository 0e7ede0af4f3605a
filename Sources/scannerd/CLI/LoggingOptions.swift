import ArgumentParser
import DaemonSupport
import Logging

/// `--log-level`: shared by `scannerd run` and the `scannerd scan` commands.
struct LoggingOptions: ParsableArguments {
    @Option(name: .customLong("log-level"), help: "Least severe log level written to standard error.")
    var logLevel: Logger.Level = .info

    /// Bootstraps logging at that level, for the journal or standard error, and gives scannerd's logger.
    func bootstrap() -> Logger {
        DaemonLogging.bootstrap(level: logLevel)
        return Logger(label: "scannerd")
    }
}
