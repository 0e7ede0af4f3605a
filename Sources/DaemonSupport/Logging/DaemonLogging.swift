#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// How a daemon's log lines are written: for the journal when systemd connected standard error
/// to it (`$JOURNAL_STREAM` is set), else swift-log's timestamped stream lines.
public enum DaemonLogging {
    /// Bootstraps swift-log once for the process; executables call this first thing.
    public static func bootstrap(level: Logger.Level, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let journal = environment["JOURNAL_STREAM"] != nil
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = journal ? JournalLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
