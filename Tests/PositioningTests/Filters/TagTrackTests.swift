import Foundation
import Positioning
import Testing

/// A tag's track (Kalman filter, room smoother, the state before the last step) as switchd
/// stores it: rebuilt from its stored form it steps as the original, and a window located late
/// leaves it as it was.
@Suite("Tag track")
struct TagTrackTests {
    static let smoothing = PositionKalmanFilter.Settings(accelerationNoise: 0.1)

    static func estimate(_ x: Double, _ y: Double, accuracy: Double = 2, floor: Int64 = 1) -> PositionEstimate {
        PositionEstimate(floorID: floor, x: x, y: y, accuracyMetres: accuracy, method: "fused")
    }

    /// The room of the nearest of two locations, one per room, either side of x = 5.
    static func room(_ estimate: PositionEstimate) -> Int64? {
        estimate.x < 5 ? 10 : 20
    }

    /// Through JSON (as the store keeps it) and back after every step, a noisy walk from one
    /// room to the other, with a revision of one instant and a floor change, gives exactly what
    /// the track kept in memory gives.
    @Test func aTrackRebuiltFromItsStoredFormStepsAsTheOriginal() throws {
        var generator = SeededGenerator(seed: 5)
        var kept = TagTrack(smoothing: Self.smoothing)
        var stored = try JSONEncoder().encode(TagTrack(smoothing: Self.smoothing).state)
        var times = (0..<40).map { Double($0) * 1.1 + 0.123456789 }
        times.insert(times[10] + 0.1, at: 11)
        for (step, time) in times.enumerated() {
            let raw = Self.estimate(
                0.3 * time + generator.nextGaussian(), 4 + generator.nextGaussian(), accuracy: 1 + abs(generator.nextGaussian()),
                floor: step < 30 ? 1 : 2
            )
            var rebuilt = TagTrack(state: try JSONDecoder().decode(TagTrack.State.self, from: stored), smoothing: Self.smoothing)
            let expected = kept.step(raw, at: time, sameInstant: 0.25, nearestRoom: Self.room)
            let actual = rebuilt.step(raw, at: time, sameInstant: 0.25, nearestRoom: Self.room)
            #expect(actual.estimate == expected.estimate && actual.room == expected.room, "step \(step)")
            #expect(rebuilt.filter.state == kept.filter.state && rebuilt.before?.time == kept.before?.time, "step \(step)")
            stored = try JSONEncoder().encode(rebuilt.state)
        }
        #expect(kept.rooms.room == 20, "the walk crossed into the other room")
    }

    /// Windows 1, 2, 4, then 3 (late), then 5: window 3 is stored as the filter takes a fix
    /// going back in time (as located), and window 5 is smoothed as if window 3 had never come.
    /// A fix from further back than the filter's gap (a replay gone back) steps the track.
    @Test func aLateWindowLeavesTheTrackAndAReplayGoneBackMovesIt() {
        let fixes = [1: Self.estimate(1, 4), 2: Self.estimate(1.6, 4.2), 3: Self.estimate(2.1, 3.9), 4: Self.estimate(2.4, 4.1), 5: Self.estimate(3.2, 4)]
        var inOrder = TagTrack(smoothing: Self.smoothing), late = TagTrack(smoothing: Self.smoothing)
        for second in [1, 2, 4, 5] {
            _ = inOrder.step(fixes[second]!, at: Double(second), sameInstant: 0.25, nearestRoom: Self.room)
        }
        var lateThree: PositionEstimate?
        var lastFive: PositionEstimate?
        for second in [1, 2, 4, 3, 5] {
            let result = late.step(fixes[second]!, at: Double(second), sameInstant: 0.25, nearestRoom: Self.room)
            if second == 3 { lateThree = result.estimate }
            if second == 5 { lastFive = result.estimate }
        }
        #expect(lateThree?.x == 2.1 && lateThree?.y == 3.9 && lateThree?.method == PositionKalmanFilter.methodName)
        #expect(late.filter.state == inOrder.filter.state && late.before?.time == 5)
        #expect(lastFive == inOrder.filter.current)

        let replay = late.step(Self.estimate(9, 9), at: 5 - 31, sameInstant: 0.25, nearestRoom: Self.room)
        #expect(replay.estimate.x == 9 && late.before?.time == 5 - 31 && late.filter.state.lastTime == 5 - 31)
    }
}

@Suite("Room smoother state: keeping only rooms that exist")
struct RoomSmootherKeepingTests {
    static let settled = RoomSmoother.State(
        belief: [.init(room: 1, probability: 0.8), .init(room: 2, probability: 0.15), .init(room: 3, probability: 0.05)], room: 1
    )

    @Test func allRoomsKeptChangesNothing() {
        #expect(Self.settled.keeping([1, 2, 3, 4]) == Self.settled)
    }

    @Test func anotherRoomGoneScalesTheRestBackToAWhole() {
        let kept = Self.settled.keeping([1, 2])
        #expect(kept.room == 1)
        #expect(kept.belief.map(\.room) == [1, 2])
        #expect(abs(kept.belief.reduce(0) { $0 + $1.probability } - 1) < 1e-12)
        #expect(abs(kept.belief[0].probability - 0.8 / 0.95) < 1e-12)
    }

    @Test func theReportedRoomGoneStartsAfresh() {
        let kept = Self.settled.keeping([2, 3])
        #expect(kept == RoomSmoother.State(belief: [], room: nil))
        var smoother = RoomSmoother(state: kept)
        #expect(smoother.update(observed: 2) == 2, "the next step reports the room it is given")
    }
}
