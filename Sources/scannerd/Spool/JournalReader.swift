#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// What a journal left on disk holds.
struct JournalContents {
    var measurements: [Measurement]
    /// The lines the measurements were read from, without their newlines.
    var lines: [Data]
    /// The telemetry reports of its ``TelemetryLine``s, in order, each as the report's JSON.
    var telemetry: [Data] = []
    /// The telemetry lines' length, newlines included.
    var telemetryBytes = 0
    /// The bytes after the last newline: a line whose `write()` was cut short. Dropped.
    var tornTail: Int
    /// Complete lines that are neither a measurement nor a telemetry report (damaged storage, or
    /// a line type of a later scannerd), by 1-based number, with why each was not read. Dropped.
    var unreadable: [UnreadableLine] = []

    /// The numbers of the ``unreadable`` lines.
    var unreadableLines: [Int] { unreadable.map(\.number) }
}

/// A journal line that was skipped, and why.
struct UnreadableLine: Equatable, CustomStringConvertible {
    var number: Int
    var reason: String

    var description: String { "line \(number): \(reason)" }
}

/// Reads a journal: one JSON ``Measurement`` or ``TelemetryLine`` per line, each line written
/// with one `write()`. Never fails: a line it cannot read is skipped and said in ``JournalContents/unreadable``.
enum JournalReader {
    static func read(_ data: Data) -> JournalContents {
        let decoder = JSONCoding.decoder()
        let newline = UInt8(ascii: "\n")
        var contents = JournalContents(measurements: [], lines: [], tornTail: 0)
        var seen = Set<UUID>()
        var lineStart = data.startIndex
        var lineNumber = 0
        while let end = data[lineStart...].firstIndex(of: newline) {
            lineNumber += 1
            let line = data[lineStart..<end]
            lineStart = end + 1
            if TelemetryLine.claims(line) {
                do {
                    let report = try TelemetryLine.decode(line)
                    contents.telemetry.append(try TelemetryLine.encode(report).report)
                    contents.telemetryBytes += line.count + 1
                } catch {
                    contents.unreadable.append(UnreadableLine(number: lineNumber, reason: "not a telemetry report: \(error)"))
                }
                continue
            }
            do {
                let measurement = try decoder.decode(Measurement.self, from: line)
                if seen.insert(measurement.id).inserted {
                    contents.measurements.append(measurement)
                    contents.lines.append(Data(line))
                }
            } catch {
                contents.unreadable.append(UnreadableLine(number: lineNumber, reason: "not a measurement or a telemetry report: \(error)"))
            }
        }
        contents.tornTail = data.endIndex - lineStart
        return contents
    }
}
