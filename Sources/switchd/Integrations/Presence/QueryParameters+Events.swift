import ScanContract
import SwitchdStore

extension QueryParameters {
    /// The filters shared by `GET /v1/events` and its stream: `scannerID`, `tagID`, `kind`, `since`, `until`.
    func presenceEventFilter() throws -> PresenceEventFilter {
        PresenceEventFilter(
            scannerID: try scannerID("scannerID"), tagID: try int64("tagID"), kind: try oneOf("kind", PresenceEventKind.self),
            since: try date("since"), until: try date("until")
        )
    }

    /// A value of a text enumeration, e.g. `kind=entered`.
    ///
    /// - Throws: 422 naming the parameter and listing the values it takes.
    func oneOf<Value: RawRepresentable & CaseIterable>(_ name: String, _ type: Value.Type) throws -> Value? where Value.RawValue == String {
        guard let text = text(name) else { return nil }
        guard let value = Value(rawValue: text) else {
            let values = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError.invalidField(name, "must be one of \(values), got \(APIError.echo(text))")
        }
        return value
    }
}
