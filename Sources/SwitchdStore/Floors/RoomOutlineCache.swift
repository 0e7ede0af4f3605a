import Positioning
import Synchronization

/// The room outlines of each floor read so far, so that placing a position or a tag in a room
/// (``AppDatabase/room(at:_:onFloor:in:)``) does not read them per position. One per
/// ``AppDatabase`` (its copies share it).
///
/// A write of outlines, rooms or floors empties it after it commits; on PostgreSQL every
/// instance also hears ``AppDatabase/outlinesChannel`` and empties its own (the cluster fan-out
/// does, and once more whenever its listener reconnects, a change may have been missed then).
/// A load is kept only when nothing emptied the cache since the generation read before its
/// transaction began, so a snapshot older than a change is never kept after it.
package final class RoomOutlineCache: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var floors: [Int64: RoomOutlines] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    /// The generation to hand to ``keep(_:onFloor:generation:)``: read before the transaction that loads.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// The floor's outlines as read last, or nil when not read since the cache was emptied.
    package func outlines(onFloor floorID: Int64) -> RoomOutlines? {
        state.withLock { $0.floors[floorID] }
    }

    /// Keeps `outlines` for the floor unless the cache was emptied after `generation`.
    package func keep(_ outlines: RoomOutlines, onFloor floorID: Int64, generation: UInt64) {
        state.withLock { state in
            if state.generation == generation { state.floors[floorID] = outlines }
        }
    }

    /// Forgets every floor's outlines.
    package func empty() {
        state.withLock { state in
            state.generation &+= 1
            state.floors = [:]
        }
    }
}
