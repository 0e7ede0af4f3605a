/// The feeds `GET /v1/stream` carries, named as their `event:` lines (and their own streams) name them.
enum LiveFeedName: String, CaseIterable, Sendable, Comparable {
    /// Scanners' positions (``Position``, the item named by `scannerID`).
    case position
    /// Tags' positions (``TagPosition``, the item named by `tagID`).
    case tagPosition
    /// Stored readings (``StoredMeasurement``, the item named by `scannerID`).
    case measurement
    /// Scan switches (``ScanSwitch``, the item named by `scannerID`): the state now, then each new revision.
    case `switch`

    /// What a stream follows when `?feeds=` is left out: where everything is on the plan.
    static let defaults: [LiveFeedName] = [.position, .tagPosition]

    static func < (lhs: LiveFeedName, rhs: LiveFeedName) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
