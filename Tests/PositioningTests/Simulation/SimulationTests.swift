import Foundation
@testable import Positioning
import ScanContract
import Testing

@Suite("Simulation maths")
struct SimulationTests {
    @Test func pathLossFollowsTheLogDistanceLaw() {
        let model = PathLossModel(powerAt1m: -59, exponent: 2, shadowingSigma: 0)
        #expect(model.meanRSSI(atDistance: 1) == -59)
        #expect(abs(model.meanRSSI(atDistance: 10) - -79) < 1e-9)
        #expect(model.meanRSSI(atDistance: 0) == model.meanRSSI(atDistance: 0.1))
    }

    @Test func shadowingHasTheConfiguredSpread() {
        let model = PathLossModel(powerAt1m: -40, exponent: 3, shadowingSigma: 4)
        var generator = SeededGenerator(seed: 42)
        let samples = (0..<20_000).map { _ in Double(model.sampleRSSI(atDistance: 5, using: &generator)) }
        let mean = samples.reduce(0, +) / Double(samples.count)
        let sd = (samples.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(samples.count)).squareRoot()
        #expect(abs(mean - model.meanRSSI(atDistance: 5)) < 0.15)
        #expect(abs(sd - 4) < 0.15)
    }

    @Test func seededGeneratorsRepeat() {
        var a = SeededGenerator(seed: 7)
        var b = SeededGenerator(seed: 7)
        var c = SeededGenerator(seed: 8)
        let first = (0..<10).map { _ in a.next() }
        #expect(first == (0..<10).map { _ in b.next() })
        #expect(first != (0..<10).map { _ in c.next() })
    }

    @Test func walkingGoesThereAndBack() throws {
        let walk = try Trajectory(parsing: "0,0;10,0@2")
        #expect(walk.position(after: 0) == PlanPoint(x: 0, y: 0))
        #expect(walk.position(after: 2.5) == PlanPoint(x: 5, y: 0))
        #expect(walk.position(after: 5) == PlanPoint(x: 10, y: 0))
        #expect(walk.position(after: 7.5) == PlanPoint(x: 5, y: 0))
        #expect(walk.position(after: 10) == PlanPoint(x: 0, y: 0))
        #expect(try Trajectory(parsing: "3.5, 4") == .standing(PlanPoint(x: 3.5, y: 4)))
    }

    @Test(arguments: ["", "1", "a,b", "1,2;3", "1,2;3,4@0", "1,2;3,4@fast", "nan,1"])
    func badTrajectoriesAreRefused(text: String) {
        #expect(throws: FieldError.self) { try Trajectory(parsing: text) }
    }

    @Test func theDemoFloorHasDistinctRadios() {
        let floor = SimulatedFloor.demo()
        #expect(Set(floor.accessPoints.map(\.wifi.bssid)).count == floor.accessPoints.count)
        #expect(Set(floor.beacons.map(\.ble.beacon)).count == floor.beacons.count)
        #expect(floor.accessPoints.allSatisfy { Measurement.frequencyRangeMHz.contains($0.wifi.frequencyMHz) })
    }
}
