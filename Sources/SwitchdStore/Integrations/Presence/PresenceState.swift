import Foundation
import ScanContract

/// A place a scanner can be in: a floor, and a room on it or none.
package struct PresenceSpot: Hashable, Sendable {
    package var floor: Int64
    package var roomID: Int64?

    package init(floor: Int64, roomID: Int64?) {
        self.floor = floor
        self.roomID = roomID
    }
}

/// What the presence derivation remembers of one scanner between positions.
package struct PresenceState: Hashable, Sendable {
    /// Where the scanner is settled; nil before it has stayed anywhere for the dwell, and after `away`.
    package var settled: PresenceSpot?
    /// A different place its positions have been in since `candidateSince`; nil when none.
    package var candidate: PresenceSpot?
    package var candidateSince: Date?
    package var away: Bool
    package var lastPositionID: Int64
    /// The time of the latest position read (the latest by time, if they came out of order).
    package var lastTime: Date

    package init(
        settled: PresenceSpot?, candidate: PresenceSpot?, candidateSince: Date?, away: Bool, lastPositionID: Int64, lastTime: Date
    ) {
        self.settled = settled
        self.candidate = candidate
        self.candidateSince = candidateSince
        self.away = away
        self.lastPositionID = lastPositionID
        self.lastTime = lastTime
    }
}

/// An event the derivation decided on, before it is stored and numbered.
package struct NewPresenceEvent: Hashable, Sendable {
    package var kind: PresenceEventKind
    package var place: PresencePlace?
    package var floor: Int64?
    package var roomID: Int64?
    package var time: Date
    package var positionID: Int64?

    package init(kind: PresenceEventKind, place: PresencePlace? = nil, floor: Int64?, roomID: Int64?, time: Date, positionID: Int64?) {
        self.kind = kind
        self.place = place
        self.floor = floor
        self.roomID = roomID
        self.time = time
        self.positionID = positionID
    }
}

/// Which stored events a listing or stream wants; nil fields do not filter.
package struct PresenceEventFilter: Sendable {
    package var scannerID: ScannerID?
    package var kind: PresenceEventKind?
    /// Events at or after this time.
    package var since: Date?
    /// Events before this time.
    package var until: Date?

    package init(scannerID: ScannerID? = nil, kind: PresenceEventKind? = nil, since: Date? = nil, until: Date? = nil) {
        self.scannerID = scannerID
        self.kind = kind
        self.since = since
        self.until = until
    }
}
