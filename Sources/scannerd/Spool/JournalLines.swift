#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// Journal lines put together for one `write()`: each a ``MeasurementLine`` or a
/// ``TelemetryLine`` and its newline, in one buffer, with the IDs of their measurements in the
/// same order and the telemetry reports' JSON (the batch's `telemetry` entries).
struct JournalLines {
    private(set) var bytes: [UInt8] = []
    private(set) var ids: [UUID] = []
    /// Each telemetry line's report, as JSON (without the line's `{"telemetry":…}` wrapping).
    private(set) var telemetry: [Data] = []
    /// The telemetry lines' length, newlines included.
    private(set) var telemetryBytes = 0

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity * JSONBytes.typicalCapacity)
        ids.reserveCapacity(capacity)
    }

    /// Measurement lines.
    var count: Int { ids.count }
    /// No measurement line (telemetry lines never travel without one).
    var isEmpty: Bool { ids.isEmpty }

    /// Appends `measurement`'s line; returns its length with the newline.
    @discardableResult
    mutating func append(_ measurement: Measurement) -> Int {
        let start = bytes.count
        MeasurementLine.encode(measurement, into: &bytes)
        bytes.append(Self.newline)
        ids.append(measurement.id)
        return bytes.count - start
    }

    /// Takes the last measurement line back out (one that does not fit in the spool).
    mutating func removeLast(_ length: Int) {
        bytes.removeLast(length)
        ids.removeLast()
    }

    /// Appends a telemetry report's line; returns its length with the newline.
    @discardableResult
    mutating func append(_ report: HeardTelemetry) throws -> Int {
        let line = try TelemetryLine.encode(report)
        bytes.append(contentsOf: line.line)
        bytes.append(Self.newline)
        telemetry.append(line.report)
        telemetryBytes += line.line.count + 1
        return line.line.count + 1
    }

    /// Takes the last telemetry line back out (one that does not fit in the spool).
    mutating func removeLastTelemetry(_ length: Int) {
        bytes.removeLast(length)
        telemetry.removeLast()
        telemetryBytes -= length
    }

    static let newline = UInt8(ascii: "\n")
}
