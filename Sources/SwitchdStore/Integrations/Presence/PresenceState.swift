import Foundation
import ScanContract

/// Whose presence is followed: a scanner's (from its positions) or a tag's (from its tag positions).
package enum PresenceSubject: Hashable, Sendable {
    case scanner(ScannerID)
    case tag(Int64)

    package var scannerID: ScannerID? {
        if case .scanner(let id) = self { id } else { nil }
    }

    package var tagID: Int64? {
        if case .tag(let id) = self { id } else { nil }
    }
}

extension PresenceSubject: Comparable {
    /// Scanners by ID, then tags by ID: the order states are written in.
    package static func < (lhs: PresenceSubject, rhs: PresenceSubject) -> Bool {
        switch (lhs, rhs) {
        case (.scanner(let a), .scanner(let b)): a.rawValue < b.rawValue
        case (.tag(let a), .tag(let b)): a < b
        case (.scanner, .tag): true
        case (.tag, .scanner): false
        }
    }
}

/// What the presence rules read of one position, a scanner's or a tag's.
package struct PresenceObservation: Hashable, Sendable {
    /// The position's ID in its own feed (`position` or `tag_position`).
    package var positionID: Int64
    package var time: Date
    package var spot: PresenceSpot

    package init(positionID: Int64, time: Date, spot: PresenceSpot) {
        self.positionID = positionID
        self.time = time
        self.spot = spot
    }

    package init(_ position: Position) {
        self.init(positionID: position.id, time: position.time, spot: PresenceSpot(floor: position.floor, roomID: position.roomID))
    }

    package init(_ position: TagPosition) {
        self.init(positionID: position.id, time: position.time, spot: PresenceSpot(floor: position.floorID, roomID: position.roomID))
    }
}

/// A place a scanner or tag can be in: a floor, and a room on it or none.
package struct PresenceSpot: Hashable, Sendable {
    package var floor: Int64
    package var roomID: Int64?

    package init(floor: Int64, roomID: Int64?) {
        self.floor = floor
        self.roomID = roomID
    }
}

/// What the presence derivation remembers of one scanner or tag between positions.
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
    /// Events about this tag (its presence, and `missingTagHeard`).
    package var tagID: Int64?
    package var kind: PresenceEventKind?
    /// Events at or after this time.
    package var since: Date?
    /// Events before this time.
    package var until: Date?

    package init(scannerID: ScannerID? = nil, tagID: Int64? = nil, kind: PresenceEventKind? = nil, since: Date? = nil, until: Date? = nil) {
        self.scannerID = scannerID
        self.tagID = tagID
        self.kind = kind
        self.since = since
        self.until = until
    }
}
