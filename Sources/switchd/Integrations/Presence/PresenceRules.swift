import Foundation
import ScanContract
import SwitchdStore

/// How positions become presence events; pure, so recorded streams can be replayed through it.
///
/// A scanner or tag settles in a place (a floor, and a room or none) once its positions have stayed
/// there for `dwell`, measured by the positions' own times: a position elsewhere starts a new
/// candidate, one back in the settled place drops it. So a position wobbling across a wall for
/// less than `dwell` changes nothing. Settling emits, in this order: `left` the old room, `left`
/// the old floor, `entered` the new floor, `entered` the new room (only those that changed).
/// The first position after `away` emits `back` and then settles like a first position.
struct PresenceRules: Sendable {
    /// How long a scanner or tag must stay in a new place before the change counts; zero settles at once.
    var dwell: Duration
    /// How long without a position before a scanner is `away`.
    var awayAfter: Duration
    /// How long without a located window before a tag is `away`; nil: ``awayAfter``.
    var tagAwayAfter: Duration?

    /// The rules a tag's presence follows: the same dwell, and ``tagAwayAfter``.
    var forTags: PresenceRules {
        PresenceRules(dwell: dwell, awayAfter: tagAwayAfter ?? awayAfter)
    }

    /// The rules `subject`'s presence follows.
    func rules(for subject: PresenceSubject) -> PresenceRules {
        subject.tagID == nil ? self : forTags
    }

    /// The state after `position`, and the events it settles.
    func step(_ state: PresenceState?, _ position: PresenceObservation) -> (PresenceState, [NewPresenceEvent]) {
        let spot = position.spot
        var next = state ?? PresenceState(
            settled: nil, candidate: nil, candidateSince: nil, away: false, lastPositionID: position.positionID, lastTime: position.time
        )
        var events: [NewPresenceEvent] = []
        if next.away {
            events.append(NewPresenceEvent(kind: .back, floor: spot.floor, roomID: spot.roomID, time: position.time, positionID: position.positionID))
            next.away = false
        }
        if spot == next.settled {
            next.candidate = nil
            next.candidateSince = nil
        } else {
            if spot != next.candidate {
                next.candidate = spot
                next.candidateSince = position.time
            }
            if position.time.milliseconds - (next.candidateSince ?? position.time).milliseconds >= Self.milliseconds(dwell) {
                events += Self.moves(from: next.settled, to: spot, time: position.time, positionID: position.positionID)
                next.settled = spot
                next.candidate = nil
                next.candidateSince = nil
            }
        }
        next.lastPositionID = position.positionID
        next.lastTime = max(next.lastTime, position.time)
        return (next, events)
    }

    /// The state once `awayAfter` has passed with no position: it leaves its room and floor and
    /// is `away`, at the last position's time plus `awayAfter`. Nothing for one already away.
    func away(_ state: PresenceState) -> (PresenceState, [NewPresenceEvent]) {
        guard !state.away else { return (state, []) }
        let time = Date(milliseconds: state.lastTime.milliseconds + Self.milliseconds(awayAfter))
        var next = state
        var events = Self.moves(from: state.settled, to: nil, time: time, positionID: nil)
        events.append(NewPresenceEvent(kind: .away, floor: nil, roomID: nil, time: time, positionID: nil))
        next.away = true
        next.settled = nil
        next.candidate = nil
        next.candidateSince = nil
        return (next, events)
    }

    /// Times are compared in the milliseconds they are stored in.
    private static func milliseconds(_ duration: Duration) -> Int64 {
        Int64((duration / .milliseconds(1)).rounded(.up))
    }

    /// The `left` and `entered` events of a move from `old` to `new` (nil: nowhere).
    private static func moves(from old: PresenceSpot?, to new: PresenceSpot?, time: Date, positionID: Int64?) -> [NewPresenceEvent] {
        let floorChanged = old?.floor != new?.floor
        var events: [NewPresenceEvent] = []
        if let old, let room = old.roomID, floorChanged || room != new?.roomID {
            events.append(NewPresenceEvent(kind: .left, place: .room, floor: old.floor, roomID: room, time: time, positionID: positionID))
        }
        if floorChanged, let old {
            events.append(NewPresenceEvent(kind: .left, place: .floor, floor: old.floor, roomID: nil, time: time, positionID: positionID))
        }
        if floorChanged, let new {
            events.append(NewPresenceEvent(kind: .entered, place: .floor, floor: new.floor, roomID: nil, time: time, positionID: positionID))
        }
        if let new, let room = new.roomID, floorChanged || room != old?.roomID {
            events.append(NewPresenceEvent(kind: .entered, place: .room, floor: new.floor, roomID: room, time: time, positionID: positionID))
        }
        return events
    }
}
