import Foundation
@testable import Positioning
import Testing

@Suite("Expected error of each surveyed location, by leave-one-location-out")
struct LeaveOneLocationOutTests {
    /// Access points 1…3 along a corridor at x = 0, 8 and 16; access point 4 heard only by the
    /// twins; access point 5 only by the isolated location.
    static let corridorAPs: [Int: Double] = [1: 0, 2: 8, 3: 16]

    /// A log-distance fade from an access point at (apX, 0), with a fixed wobble per scan so
    /// that samples of one location differ a little.
    static func rssi(from apX: Double, atX x: Double, y: Double, scan: Int) -> Double {
        let distance = ((x - apX) * (x - apX) + y * y).squareRoot()
        return -40 - 25 * log10(distance + 1) + Double(scan % 3 - 1)
    }

    /// Locations 1…5 every 4 m along the corridor; location 6 alone 12 m past its end, hearing
    /// the corridor faintly and an access point of its own; locations 10 and 11, 60 m apart,
    /// hearing exactly the same thing.
    static func survey(scans: Int = 3) -> [FingerprintRecord<Int>] {
        var records: [FingerprintRecord<Int>] = []
        func add(_ id: Int64, x: Double, y: Double, _ readings: (Int) -> [Int: Double]) {
            for scan in 0..<scans {
                records.append(FingerprintRecord(building: "A", floorID: 0, x: x, y: y, locationID: id, readings: readings(scan)))
            }
        }
        for (index, x) in [0.0, 4, 8, 12, 16].enumerated() {
            add(Int64(index + 1), x: x, y: 0) { scan in corridorAPs.mapValues { rssi(from: $0, atX: x, y: 0, scan: scan) } }
        }
        add(6, x: 28, y: 0) { scan in [3: rssi(from: 16, atX: 28, y: 0, scan: scan), 5: -45 + Double(scan % 2)] }
        add(10, x: 0, y: 40) { _ in [4: -55] }
        add(11, x: 60, y: 40) { _ in [4: -55] }
        return records
    }

    static func expected(_ records: [FingerprintRecord<Int>], folds: Int = 64) -> [Int64: ExpectedError] {
        LeaveOneLocationOut<Int>(maximumFolds: folds).outcomes(of: records) { WiFiKNNLocator(records: $0) }
            .compactMapValues { ExpectedError(errors: $0.errors) }
    }

    @Test func anIsolatedDistinctiveLocationExpectsLessErrorThanTwinsFarApart() throws {
        let expected = Self.expected(Self.survey())
        let isolated = try #require(expected[6]), twin = try #require(expected[10]), otherTwin = try #require(expected[11])
        // Each twin is found at the other: off by the 60 m between them, every time.
        #expect(abs(twin.metres - 60) < 0.01 && abs(otherTwin.metres - 60) < 0.01)
        #expect(isolated.metres < twin.metres)
        // Inside the corridor the neighbours 4 m either side explain a left-out location.
        let middle = try #require(expected[3])
        #expect(middle.metres < 4.5, "\(middle)")
        #expect(middle.metres < isolated.metres)
        #expect(expected.values.allSatisfy { $0.samples == 3 && $0.quantile == ExpectedError.standardQuantile })
    }

    @Test func foldsStillLeaveEachLocationOutOfItsOwnMapOnce() throws {
        let records = Self.survey()
        let outcomes = LeaveOneLocationOut<Int>(maximumFolds: 3).outcomes(of: records) { WiFiKNNLocator(records: $0) }
        #expect(outcomes.keys.sorted() == [1, 2, 3, 4, 5, 6, 10, 11])
        #expect(outcomes.values.allSatisfy { $0.errors.count + $0.unanswered == 3 })
        // Twins 10 and 11 fall in different folds of three (sixth and seventh in ID order), so
        // each is still found at the other.
        let twin = try #require(ExpectedError(errors: outcomes[10]?.errors ?? []))
        #expect(abs(twin.metres - 60) < 0.01)
    }

    @Test func oneLocationAloneHasNothingToBeLocatedAgainst() {
        let alone = Self.survey().filter { $0.locationID == 1 }
        #expect(LeaveOneLocationOut<Int>().outcomes(of: alone) { WiFiKNNLocator(records: $0) }.isEmpty)
    }

    @Test func aSampleOnAnotherFloorIsCountedAsAWrongFloor() {
        var records = Self.survey()
        // Twin 11 moves upstairs: twin 10 is then located on floor 1.
        for index in records.indices where records[index].locationID == 11 { records[index].floorID = 1 }
        let outcomes = LeaveOneLocationOut<Int>().outcomes(of: records) { WiFiKNNLocator(records: $0) }
        #expect(outcomes[10]?.wrongFloor == 3)
        #expect(outcomes[3]?.wrongFloor == 0)
    }

    @Test func theQuantileInterpolatesBetweenSortedErrors() throws {
        // 0.68 of the way through 5 sorted errors is position 2.72: 3 + 0.72 × (4 − 3).
        let error = try #require(ExpectedError(errors: [5, 1, 4, 2, 3]))
        #expect(abs(error.metres - 3.72) < 1e-12 && error.samples == 5)
        #expect(ExpectedError(errors: [7], quantile: 0.5)?.metres == 7)
        #expect(ExpectedError(errors: []) == nil)
    }
}
