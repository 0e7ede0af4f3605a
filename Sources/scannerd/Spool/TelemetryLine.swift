#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// A journal line holding one Eddystone-TLM report (``HeardTelemetry``) a scan session heard:
/// `{"telemetry":{…}}`, beside the ``MeasurementLine``s of the same batch. Journals written
/// before this line existed hold measurement lines only and read as they always did. A sealed
/// batch carries the reports as its last key, `telemetry` (see ``SpooledBatch/json``), which the
/// uploader takes off and posts on their own (``ReadyBody``).
enum TelemetryLine {
    /// What starts every telemetry line (JSONCoding sorts keys; the line has one).
    static let prefix = Data(#"{"telemetry":"#.utf8)

    private struct Wrapped: Codable {
        var telemetry: HeardTelemetry
    }

    /// The line (no newline) and the report's own JSON.
    static func encode(_ report: HeardTelemetry) throws -> (line: Data, report: Data) {
        let encoder = JSONCoding.encoder()
        return (try encoder.encode(Wrapped(telemetry: report)), try encoder.encode(report))
    }

    /// Whether `line` claims to be a telemetry line (it may still fail to decode).
    static func claims(_ line: Data) -> Bool {
        line.starts(with: prefix)
    }

    /// - Throws: the decoder's error when the line is not a telemetry line, or its report is not
    ///   one a TLM frame can say (``HeardTelemetry/validate()``).
    static func decode(_ line: Data) throws -> HeardTelemetry {
        let report = try JSONCoding.decoder().decode(Wrapped.self, from: line).telemetry
        try report.validate()
        return report
    }
}
