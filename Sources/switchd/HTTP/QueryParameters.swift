import Foundation
import Hummingbird
import ScanContract
import SwitchdStore

/// The query string of a request, read into typed values. A value that does not parse is a 422
/// naming the parameter; a parameter left out is nil. Unknown parameters are ignored.
struct QueryParameters {
    /// The first value of each parameter, percent-decoded.
    private let values: [String: String]

    init(_ request: Request) {
        var values: [String: String] = [:]
        for (key, value) in request.uri.queryParameters where values[String(key)] == nil {
            values[String(key)] = String(value)
        }
        self.values = values
    }

    func text(_ name: String) -> String? {
        values[name]
    }

    func int64(_ name: String, in range: ClosedRange<Int64> = 0...Int64.max) throws -> Int64? {
        guard let text = text(name) else { return nil }
        guard let value = Int64(text), range.contains(value) else {
            throw APIError.invalidField(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(APIError.echo(text))")
        }
        return value
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        try int64(name, in: Int64(range.lowerBound)...Int64(range.upperBound)).map { Int($0) }
    }

    /// A non-negative number of seconds.
    func seconds(_ name: String) throws -> Double? {
        guard let text = text(name) else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw APIError.invalidField(name, "must be a number of seconds, 0 or more, got \(APIError.echo(text))")
        }
        return value
    }

    func date(_ name: String) throws -> Date? {
        guard let text = text(name) else { return nil }
        guard let date = JSONCoding.parseDate(text) else {
            throw APIError.invalidField(name, "must be an RFC 3339 date like 2026-11-22T06:50:00.123Z, got \(APIError.echo(text))")
        }
        return date
    }

    func scannerID(_ name: String) throws -> ScannerID? {
        guard let text = text(name) else { return nil }
        do {
            return try ScannerID(text)
        } catch {
            throw APIError.invalidField(name, error.reason)
        }
    }

    func kind(_ name: String) throws -> RadioKind? {
        guard let text = text(name) else { return nil }
        guard let kind = RadioKind(rawValue: text) else {
            throw APIError.invalidField(name, "must be wifi or ble, got \(APIError.echo(text))")
        }
        return kind
    }

    func emitter(_ name: String) throws -> EmitterFilter? {
        guard let text = text(name) else { return nil }
        do {
            return try EmitterFilter(text)
        } catch {
            throw APIError.invalidField(name, error.reason)
        }
    }

    /// `true` or `false`; nil when left out.
    func bool(_ name: String) throws -> Bool? {
        guard let text = text(name) else { return nil }
        guard let value = Bool(text) else {
            throw APIError.invalidField(name, "must be true or false, got \(APIError.echo(text))")
        }
        return value
    }

    /// The filters shared by `GET /v1/measurements` and its stream.
    func measurementFilter() throws -> MeasurementFilter {
        MeasurementFilter(
            scannerID: try scannerID("scanner"), locationID: try int64("location"), roomID: try int64("room"),
            kind: try kind("kind"), since: try date("since"), until: try date("until"), emitter: try emitter("emitter")
        )
    }

    /// The filters shared by `GET /v1/positions` and its stream.
    func positionFilter() throws -> PositionFilter {
        PositionFilter(scannerID: try scannerID("scannerID"), since: try date("since"), until: try date("until"))
    }
}
