#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization

/// How a daemon's log lines are written: for the journal when systemd connected standard error
/// to it (`$JOURNAL_STREAM` is set), else swift-log's timestamped stream lines.
public enum DaemonLogging {
    /// Bootstraps swift-log once for the process; executables call this first thing.
    /// The level is the process's ``level``, which may change while it runs.
    public static func bootstrap(level: Logger.Level, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let journal = environment["JOURNAL_STREAM"] != nil
        self.level = level
        LoggingSystem.bootstrap { label in
            LiveLevelLogHandler(inner: journal ? JournalLogHandler(label: label) : StreamLogHandler.standardError(label: label))
        }
    }

    private static let liveLevel = Mutex(Logger.Level.info)

    /// The least severe level every logger made after ``bootstrap(level:environment:)`` writes,
    /// unless the logger was given its own: scannerd changes it when switchd's settings say.
    public static var level: Logger.Level {
        get { liveLevel.withLock { $0 } }
        set { liveLevel.withLock { $0 = newValue } }
    }
}

/// `inner` at the process's current ``DaemonLogging/level``, or at a level set on the logger.
struct LiveLevelLogHandler: LogHandler {
    var inner: any LogHandler
    private var ownLevel: Logger.Level?

    init(inner: any LogHandler) {
        self.inner = inner
    }

    var logLevel: Logger.Level {
        get { ownLevel ?? DaemonLogging.level }
        set { ownLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        inner.log(event: event)
    }
}
