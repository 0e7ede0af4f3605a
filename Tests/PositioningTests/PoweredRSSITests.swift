import Foundation
@testable import Positioning
import Testing

@Suite("Powed RSSI and Sørensen distance")
struct PoweredRSSITests {
    /// (rssi + 100) / 100, so the arithmetic below can be done by hand.
    let linear = PoweredRSSI(floorDBm: -100, exponent: 1, weakestHeardDBm: -100)

    @Test func mapsTheFloorToZeroAndZeroDBmToOne() {
        let powed = PoweredRSSI()
        #expect(powed.value(-104) == 0)
        #expect(powed.value(-120) == 0)
        #expect(powed.value(0) == 1)
        #expect(powed.value(5) == 1)
        #expect(abs(powed.value(-52) - pow(0.5, M_E)) < 1e-12)
    }

    @Test func readingsWeakerThanTheThresholdCountAsNotHeard() {
        let strict = PoweredRSSI(floorDBm: -100, exponent: 1, weakestHeardDBm: -85)
        #expect(strict.value(-86) == 0)
        #expect(abs(strict.value(-85) - 0.15) < 1e-12)
    }

    @Test func sorensenDistanceByHand() {
        // a = (0.5, 0.2, 0), b = (0.3, 0, 0.1): Σ|a−b| = 0.2 + 0.2 + 0.1 = 0.5, Σ(a+b) = 1.1.
        let a = [1: -50.0, 2: -80.0]
        let b = [1: -70.0, 3: -90.0]
        #expect(abs(sorensenDistance(a, b, in: linear) - 0.5 / 1.1) < 1e-12)
        #expect(sorensenDistance(a, a, in: linear) == 0)
        #expect(sorensenDistance(a, [4: -60.0], in: linear) == 1)
        #expect(sorensenDistance([Int: Double](), [:], in: linear) == 1)
    }

    @Test func theIndexComputesTheSameDistancesAsTheDefinition() throws {
        var generator = SeededGenerator(seed: 11)
        let records = (0..<40).map { n in
            var readings: [Int: Double] = [:]
            for ap in 0..<12 where n == 0 || generator.next() % 3 == 0 {
                readings[ap] = -30 - Double(generator.next() % 70)
            }
            return FingerprintRecord(building: "A", floorID: 1, x: Double(n), y: 0, readings: readings)
        }
        let index = FingerprintIndex(records: records, representation: linear)
        let scan = [0: -45.0, 3: -70.0, 7: -88.0, 11: -60.0]
        let shared = try #require(index.distances(to: scan))
        let byRecord = Dictionary(uniqueKeysWithValues: zip(shared.records, shared.distances))
        for (n, record) in records.enumerated() {
            let expected = sorensenDistance(scan, record.readings, in: linear)
            #expect(abs((byRecord[Int32(n)] ?? 1) - expected) < 1e-12, "record \(n)")
        }
    }

    @Test func aScanSharingNoRadioWithTheSurveyHasNoDistances() {
        let index = FingerprintIndex(records: [FingerprintRecord(building: "A", floorID: 1, x: 0, y: 0, readings: [1: -50.0])])
        #expect(index.distances(to: [2: -50.0]) == nil)
        #expect(index.distances(to: [:]) == nil)
    }
}
