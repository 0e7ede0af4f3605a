import Foundation
@testable import Positioning
import ScanContract
import Testing

@Suite("Position Kalman filter")
struct PositionKalmanFilterTests {
    static func estimate(_ x: Double, _ y: Double, accuracy: Double = 2, floor: Int64? = 1) -> PositionEstimate {
        PositionEstimate(floorID: floor, x: x, y: y, accuracyMetres: accuracy, method: "fused")
    }

    @Test func firstMeasurementIsTakenAsIs() {
        var filter = PositionKalmanFilter()
        let out = filter.update(Self.estimate(3, 4), at: 0)
        #expect(out.x == 3 && out.y == 4 && out.floorID == 1 && out.method == "filtered")
        #expect(abs(out.accuracyMetres - 2) < 1e-12)
    }

    @Test func repeatedMeasurementsShrinkTheRadius() {
        var filter = PositionKalmanFilter()
        var last = filter.update(Self.estimate(3, 4), at: 0)
        for t in 1...10 { last = filter.update(Self.estimate(3, 4), at: Double(t)) }
        #expect(abs(last.x - 3) < 1e-9 && abs(last.y - 4) < 1e-9)
        #expect(last.accuracyMetres < 2)
    }

    @Test func noisyWalkIsSmoothedCloserToTheTruth() {
        var generator = SeededGenerator(seed: 11)
        var filter = PositionKalmanFilter()
        var raw = 0.0, smoothed = 0.0
        for step in 0..<200 {
            let t = Double(step)
            let truth = (x: 0.8 * t, y: 2.0)
            let measured = Self.estimate(truth.x + 1.5 * generator.nextGaussian(), truth.y + 1.5 * generator.nextGaussian(), accuracy: 1.5 * 2.0.squareRoot())
            let out = filter.update(measured, at: t)
            if step >= 10 {
                raw += hypot(measured.x - truth.x, measured.y - truth.y)
                smoothed += hypot(out.x - truth.x, out.y - truth.y)
            }
        }
        #expect(smoothed < 0.7 * raw)
    }

    @Test func aLongerGapTrustsTheNewMeasurementMore() {
        var short = PositionKalmanFilter(), long = PositionKalmanFilter()
        _ = short.update(Self.estimate(0, 0), at: 0)
        _ = long.update(Self.estimate(0, 0), at: 0)
        let afterShort = short.update(Self.estimate(10, 0), at: 1)
        let afterLong = long.update(Self.estimate(10, 0), at: 20)
        #expect(afterLong.x > afterShort.x)
        #expect(afterShort.x > 0 && afterLong.x < 10)
    }

    @Test func floorChangeAndTimeGoingBackRestart() {
        var filter = PositionKalmanFilter()
        _ = filter.update(Self.estimate(0, 0), at: 0)
        _ = filter.update(Self.estimate(0, 0), at: 1)
        let upstairs = filter.update(Self.estimate(8, 8, floor: 2), at: 2)
        #expect(upstairs.x == 8 && upstairs.floorID == 2)
        let earlier = filter.update(Self.estimate(1, 1, floor: 2), at: 0.5)
        #expect(earlier.x == 1)
        let afterSilence = filter.update(Self.estimate(5, 5, floor: 2), at: 100)
        #expect(afterSilence.x == 5)
    }

    @Test func nonFiniteInputLeavesTheTrack() {
        var filter = PositionKalmanFilter()
        _ = filter.update(Self.estimate(2, 2), at: 0)
        let out = filter.update(Self.estimate(.nan, 2), at: 1)
        #expect(out.x == 2 && out.y == 2)
    }
}
