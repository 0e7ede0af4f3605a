/// One tag's smoothing from window to window: a ``PositionKalmanFilter`` over its fixes, a
/// ``RoomSmoother`` over the rooms they fall in, and both as they were before the last step, so
/// that an estimate of the same instant revises the last one instead of counting as a second
/// measurement. A value with a stored form (``State``): switchd keeps one per tag in its store
/// and steps it in the transaction that stores the window's position, so the windows every
/// instance closes go through the one track, in the order they are stored.
public struct TagTrack: Sendable {
    public var filter: PositionKalmanFilter
    public var rooms: RoomSmoother
    /// The filter and room smoother before the last step, and that step's time.
    public var before: (filter: PositionKalmanFilter, rooms: RoomSmoother, time: Double)?

    /// A track that has seen nothing yet.
    public init(smoothing: PositionKalmanFilter.Settings) {
        filter = PositionKalmanFilter(settings: smoothing)
        rooms = RoomSmoother()
    }

    /// Takes the fix of the window ending at `time` (seconds, any origin, as the filter's),
    /// made on floor `raw.floorID`, and returns the smoothed fix and the smoothed room.
    /// `nearestRoom` names the room of a smoothed fix (its outline, else its nearest location: nil
    /// when the floor has neither, docs/tags.md), which
    /// the room smoother is fed.
    ///
    /// - A fix within `sameInstant` of the last step's time revises it: the filter and room
    ///   smoother go back to their state before that step, then take this fix.
    /// - A fix older than that by more than `sameInstant` but no more than the filter's
    ///   ``PositionKalmanFilter/Settings/maximumGap`` is a window located late (on several
    ///   instances, one closed it after another stored a newer window). It is smoothed as the
    ///   filter does any fix going back in time (started afresh at the fix, so stored as
    ///   located) with the track's room belief, and the track stays as it was: later windows go
    ///   on from the newest fix rather than from this older one, and no stored position changes.
    /// - Anything else steps the track; a fix older than the gap (a replay gone back to another
    ///   stretch of time) restarts the filter there, as any gap does.
    ///
    /// - Throws: what `nearestRoom` throws; the track is then as it was.
    public mutating func step(
        _ raw: PositionEstimate, at time: Double, sameInstant: Double, nearestRoom: (PositionEstimate) throws -> Int64?
    ) rethrows -> (estimate: PositionEstimate, room: Int64?) {
        if let before, time < before.time - sameInstant, before.time - time <= filter.settings.maximumGap {
            var late = self
            return try late.advance(raw, at: time, sameInstant: sameInstant, nearestRoom: nearestRoom)
        }
        var next = self
        let result = try next.advance(raw, at: time, sameInstant: sameInstant, nearestRoom: nearestRoom)
        self = next
        return result
    }

    private mutating func advance(
        _ raw: PositionEstimate, at time: Double, sameInstant: Double, nearestRoom: (PositionEstimate) throws -> Int64?
    ) rethrows -> (estimate: PositionEstimate, room: Int64?) {
        if let before, abs(time - before.time) <= sameInstant {
            filter = before.filter
            rooms = before.rooms
        }
        before = (filter: filter, rooms: rooms, time: time)
        let smoothed = filter.update(raw, at: time)
        if smoothed.floorID != raw.floorID { rooms.reset() }
        let room = try nearestRoom(smoothed).map { rooms.update(observed: $0) }
        return (smoothed, room)
    }
}

extension TagTrack {
    /// What the track has learnt, without its settings (which come from the code, and may
    /// change between runs): the form switchd stores. Every figure is kept as it is, so a track
    /// rebuilt from its state steps as the original would.
    public struct State: Codable, Hashable, Sendable {
        public var filter: PositionKalmanFilter.State
        public var rooms: RoomSmoother.State
        public var before: Before?

        public struct Before: Codable, Hashable, Sendable {
            public var filter: PositionKalmanFilter.State
            public var rooms: RoomSmoother.State
            public var time: Double
        }
    }

    /// The track `state` describes, its filter with `smoothing` and its room smoother with the
    /// defaults (as ``init(smoothing:)``).
    public init(state: State, smoothing: PositionKalmanFilter.Settings) {
        filter = PositionKalmanFilter(settings: smoothing, state: state.filter)
        rooms = RoomSmoother(state: state.rooms)
        before = state.before.map {
            (filter: PositionKalmanFilter(settings: smoothing, state: $0.filter), rooms: RoomSmoother(state: $0.rooms), time: $0.time)
        }
    }

    public var state: State {
        State(
            filter: filter.state, rooms: rooms.state,
            before: before.map { State.Before(filter: $0.filter.state, rooms: $0.rooms.state, time: $0.time) }
        )
    }
}

extension TagTrack.State {
    /// The track without room beliefs in rooms not in `rooms` (``RoomSmoother/State/keeping(_:)``),
    /// before and after its last step: a track stored before a room was deleted, or while the
    /// tag was on another floor, steps on with the rooms that are there.
    public func keepingRooms(_ rooms: Set<Int64>) -> Self {
        var kept = self
        kept.rooms = self.rooms.keeping(rooms)
        if let before { kept.before?.rooms = before.rooms.keeping(rooms) }
        return kept
    }
}
