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
    /// The bytes after the last newline: a line whose `write()` was cut short. Dropped.
    var tornTail: Int
    /// 1-based numbers of complete lines that are not a measurement (damaged storage). Dropped.
    var unreadableLines: [Int]
}

/// Reads a journal: one JSON ``Measurement`` per line, each line written with one `write()`.
enum JournalReader {
    static func read(_ data: Data) -> JournalContents {
        let decoder = JSONCoding.decoder()
        let newline = UInt8(ascii: "\n")
        var contents = JournalContents(measurements: [], lines: [], tornTail: 0, unreadableLines: [])
        var seen = Set<UUID>()
        var lineStart = data.startIndex
        var lineNumber = 0
        while let end = data[lineStart...].firstIndex(of: newline) {
            lineNumber += 1
            let line = data[lineStart..<end]
            lineStart = end + 1
            do {
                let measurement = try decoder.decode(Measurement.self, from: line)
                if seen.insert(measurement.id).inserted {
                    contents.measurements.append(measurement)
                    contents.lines.append(Data(line))
                }
            } catch {
                contents.unreadableLines.append(lineNumber)
            }
        }
        contents.tornTail = data.endIndex - lineStart
        return contents
    }
}
