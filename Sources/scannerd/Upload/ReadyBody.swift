#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// A sealed batch's file split for upload: the ``MeasurementBatch`` JSON for
/// `POST /v1/measurements`, and the Eddystone-TLM reports its ``SpooledBatch/json`` put after
/// it as a last key, `telemetry`, for `POST /v1/sightings` (the listening role's telemetry path).
struct ReadyBody {
    /// The batch without its telemetry: what switchd's ingest reads.
    var measurements: Data
    /// Nil when the batch has none (every batch of an older scannerd).
    var telemetry: [HeardTelemetry]?
    /// Why telemetry that was there could not be read (it is then left in ``measurements``,
    /// which switchd reads all the same); nil when it was read or there was none.
    var unreadableTelemetry: String?

    /// What ends the `switchRevision` value when telemetry follows it. The last key a sealed
    /// batch has; inside a JSON string a quote is always escaped, so these bytes cannot be part
    /// of a measurement's text.
    private static let marker = Data(#","telemetry":["#.utf8)

    private struct Reports: Decodable {
        var telemetry: [HeardTelemetry]
    }

    init(_ body: Data) {
        measurements = body
        // A batch without telemetry ends with its revision's digits: nothing to look for.
        guard body.last == UInt8(ascii: "}"), body.dropLast().last == UInt8(ascii: "]"), let start = Self.lastMarker(in: body) else { return }
        do {
            // `{` + `"telemetry":[…]}`: the last key as an object of its own.
            let reports = try JSONCoding.decoder().decode(Reports.self, from: Data("{".utf8) + body[(start + 1)...]).telemetry
            measurements = body[..<start] + Data("}".utf8)
            telemetry = reports
        } catch {
            unreadableTelemetry = "\(error)"
        }
    }

    /// Where the last ``marker`` in `body` starts.
    private static func lastMarker(in body: Data) -> Data.Index? {
        guard body.count >= marker.count else { return nil }
        var start = body.endIndex - marker.count
        while start >= body.startIndex {
            if body[start..<(start + marker.count)].elementsEqual(marker) { return start }
            start -= 1
        }
        return nil
    }
}
