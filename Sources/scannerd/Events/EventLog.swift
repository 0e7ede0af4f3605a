import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ScanContract

/// Appends ``ScannerEvent``s as JSON lines to a file or standard output, or nowhere.
///
/// Each line goes out with a single `write()` on a descriptor opened `O_APPEND`, so lines from
/// concurrent writers never interleave and a line written before the process is killed stays.
/// A failed write is logged and the daemon carries on: the event log must not stop scanning.
/// A `tap` (tests give one) is handed every event once it is recorded: after its line is written
/// (or failed to be, or when nothing is written), so a test woken by it finds the line in the file.
final class EventLog: Sendable {
    enum Destination: Sendable, Equatable {
        case none
        case standardOutput
        case file(String)

        /// `-` is standard output; anything else a file path.
        init(argument: String) {
            self = argument == "-" ? .standardOutput : .file(argument)
        }
    }

    private let descriptor: FileDescriptor?
    private let ownsDescriptor: Bool
    private let logger: Logger
    private let tap: (@Sendable (ScannerEvent) -> Void)?

    private init(descriptor: FileDescriptor?, ownsDescriptor: Bool, logger: Logger, tap: (@Sendable (ScannerEvent) -> Void)?) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.logger = logger
        self.tap = tap
    }

    /// Opens the destination (a file is created when missing and appended to).
    convenience init(_ destination: Destination, logger: Logger, tap: (@Sendable (ScannerEvent) -> Void)? = nil) throws(SystemError) {
        switch destination {
        case .none:
            self.init(descriptor: nil, ownsDescriptor: false, logger: logger, tap: tap)
        case .standardOutput:
            self.init(descriptor: .standardOutput, ownsDescriptor: false, logger: logger, tap: tap)
        case .file(let path):
            let descriptor = try FileDescriptor.open(path, .append)
            // A scannerd killed mid-line leaves a line without its end; end it, so this run's
            // first line is not glued to it and lost with it.
            if let last = try FileSystem.lastByte(of: path), last != UInt8(ascii: "\n") {
                try descriptor.write(Data([UInt8(ascii: "\n")]))
            }
            self.init(descriptor: descriptor, ownsDescriptor: true, logger: logger, tap: tap)
        }
    }

    /// An event log that writes nothing.
    static func disabled(logger: Logger, tap: (@Sendable (ScannerEvent) -> Void)? = nil) -> EventLog {
        EventLog(descriptor: nil, ownsDescriptor: false, logger: logger, tap: tap)
    }

    var isEnabled: Bool { descriptor != nil }

    func record(_ event: ScannerEvent) {
        defer { tap?(event) }
        guard let descriptor else { return }
        let line = EventLine(event: event, monotonicNs: DispatchTime.now().uptimeNanoseconds, time: Date())
        do {
            var data = try JSONCoding.encoder().encode(line)
            data.append(UInt8(ascii: "\n"))
            try descriptor.write(data)
        } catch {
            logger.error("could not write to the event log", metadata: ["event": "\(event.name)", "error": "\(error)"])
        }
    }

    deinit {
        guard ownsDescriptor, let descriptor else { return }
        do {
            try descriptor.close()
        } catch {
            logger.warning("closing the event log failed", metadata: ["error": "\(error)"])
        }
    }
}
