#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// Writes one line per event to standard error the way the journal reads it: a `<N>` syslog
/// priority prefix (the journal turns it into the entry's priority, so `journalctl -p warning`
/// works), no timestamp (the journal stamps each entry), then `label: message key=value …`.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    let label: String

    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() {
            merged.merge(provided, uniquingKeysWith: { $1 })
        }
        if let extra = event.metadata {
            merged.merge(extra, uniquingKeysWith: { $1 })
        }
        Self.writeToStandardError(Self.line(level: event.level, label: label, message: "\(event.message)", metadata: merged))
    }

    /// One write(2) per line where the kernel takes it whole, so lines of concurrent events never
    /// interleave; a failed write is dropped (there is nowhere left to report it).
    private static func writeToStandardError(_ line: String) {
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    /// The whole line, newline included. Line breaks inside the message or a value are escaped so
    /// that one event stays one journal entry.
    static func line(level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> String {
        var line = "<\(priority(level))>\(label): \(escaped(message))"
        for key in metadata.keys.sorted() {
            line += " \(key)=\(quoted(escaped("\(metadata[key]!)")))"
        }
        return line + "\n"
    }

    /// syslog(3) priorities: 7 debug … 2 critical.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    private static func escaped(_ text: String) -> String {
        replacingScalars(of: text) { $0 == "\n" ? "\\n" : $0 == "\r" ? "\\r" : nil }
    }

    private static func quoted(_ value: String) -> String {
        value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" })
            ? "\"" + replacingScalars(of: value) { $0 == "\"" ? "\\\"" : nil } + "\"" : value
    }

    /// `text` with each scalar for which `replacement` gives a string replaced by it; scalar by
    /// scalar, so a `\r` in a CR-LF pair is found too.
    private static func replacingScalars(of text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) { result += replaced } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
