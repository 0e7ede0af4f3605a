/// Whose telemetry a row or a `batteryLow` event is: a tag's or a registered beacon's.
package enum TelemetrySubject: Hashable, Sendable {
    case tag(Int64)
    case beacon(Int64)

    package var tagID: Int64? {
        if case .tag(let id) = self { id } else { nil }
    }

    package var beaconID: Int64? {
        if case .beacon(let id) = self { id } else { nil }
    }

    /// The `emitter_telemetry` column that names it.
    var column: String {
        switch self {
        case .tag: "tag_id"
        case .beacon: "beacon_id"
        }
    }

    var id: Int64 {
        switch self {
        case .tag(let id), .beacon(let id): id
        }
    }
}
