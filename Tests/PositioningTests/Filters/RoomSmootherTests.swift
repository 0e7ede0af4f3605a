@testable import Positioning
import ScanContract
import Testing

@Suite("Room smoother")
struct RoomSmootherTests {
    @Test func flipFloppingAtABoundaryIsHeld() {
        var smoother = RoomSmoother()
        var reported: [Int64] = []
        // Standing at the door of rooms 1 and 2: the raw room alternates, with a few repeats.
        let raw: [Int64] = [1, 2, 1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2, 1, 2, 2, 1]
        for room in raw { reported.append(smoother.update(observed: room)) }
        #expect(Set(reported) == [1])
        #expect(raw.filter { $0 == 2 }.count >= 8)
    }

    @Test func aRealMoveIsFollowedWithinSixSteps() throws {
        var smoother = RoomSmoother()
        for _ in 0..<20 { _ = smoother.update(observed: 1) }
        var steps = 0
        while smoother.update(observed: 2) != 2 {
            steps += 1
            try #require(steps < 10)
        }
        #expect(steps + 1 <= 6)
        #expect(smoother.room == 2)
    }

    @Test func unreachableRoomsNeedMoreEvidence() {
        // Room 3 is not reachable from room 1 in one step (no door): the filter waits longer
        // than for the neighbouring room 2.
        func stepsToSwitch(to target: Int64) -> Int {
            var smoother = RoomSmoother(neighbours: [1: [2], 2: [1, 3], 3: [2]])
            for _ in 0..<10 { _ = smoother.update(observed: 1) }
            var steps = 1
            while smoother.update(observed: target) != target, steps < 50 { steps += 1 }
            return steps
        }
        #expect(stepsToSwitch(to: 3) > stepsToSwitch(to: 2))
    }

    @Test func resetForgets() {
        var smoother = RoomSmoother()
        _ = smoother.update(observed: 1)
        smoother.reset()
        #expect(smoother.room == nil)
        #expect(smoother.update(observed: 5) == 5)
    }
}
