import Foundation
@testable import Positioning
import ScanContract
import Testing

@Suite("Simulated fixed scanners and a moving tag")
struct SimulatedTagScannersTests {
    static func simulation(seed: UInt64) -> SimulatedTagScanners {
        SimulatedTagScanners(
            scanners: [
                .init(point: PlanPoint(x: 0, y: 0), height: 2.5), .init(point: PlanPoint(x: 12, y: 0), height: 2.5),
                .init(point: PlanPoint(x: 6, y: 10), height: 2.5),
            ],
            trajectory: .walking([PlanPoint(x: 1, y: 1), PlanPoint(x: 11, y: 1)], metresPerSecond: 1),
            model: PathLossModel(powerAt1m: -59, exponent: 2, shadowingSigma: 2), seed: seed
        )
    }

    @Test func theSameSeedHearsTheSame() {
        var a = Self.simulation(seed: 3), b = Self.simulation(seed: 3)
        for index in 0..<5 {
            #expect(a.window(index).heard == b.window(index).heard)
        }
    }

    @Test func theTagWalksAndTheNearestScannerHearsItLoudest() throws {
        var simulation = Self.simulation(seed: 5)
        let start = simulation.window(0), end = simulation.window(9)
        #expect(start.truth == PlanPoint(x: 1.5, y: 1) && end.truth == PlanPoint(x: 10.5, y: 1))
        #expect(start.heard[0]?.readings.count == 5)
        #expect(try #require(start.heard[0]?.median) > (try #require(start.heard[1]?.median)))
        #expect(try #require(end.heard[1]?.median) > (try #require(end.heard[0]?.median)))
    }
}
