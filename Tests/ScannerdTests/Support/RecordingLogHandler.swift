import Foundation
import Logging

/// A log handler that keeps every line, for tests that count what was logged.
final class RecordingLogHandler: LogHandler, @unchecked Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let lock = NSLock()
    private var kept: [Line] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { kept.append(Line(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:])) }
    }

    var lines: [Line] { lock.withLock { kept } }

    var logger: Logger { Logger(label: "recorded") { _ in self } }
}
