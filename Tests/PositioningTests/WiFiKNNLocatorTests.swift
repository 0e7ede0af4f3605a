@testable import Positioning
import Testing

@Suite("Wi-Fi kNN with the building → floor → position cascade")
struct WiFiKNNLocatorTests {
    /// (rssi + 100) / 100, so distances can be worked out by hand.
    let linear = PoweredRSSI(floorDBm: -100, exponent: 1, weakestHeardDBm: -100)

    func record(_ floor: Int64, _ x: Double, _ readings: [Int: Double], id: Int64? = nil, building: String = "A") -> FingerprintRecord<Int> {
        FingerprintRecord(building: building, floorID: floor, x: x, y: 0, locationID: id, readings: readings)
    }

    func locator(_ records: [FingerprintRecord<Int>], buildings: Int = 1, floors: Int, k: Int) -> WiFiKNNLocator<Int> {
        WiFiKNNLocator(
            records: records, representation: linear,
            settings: .init(buildingVoters: buildings, floorVoters: floors, neighbours: k))
    }

    @Test func oneNeighbourGivesTheNearestFingerprint() throws {
        let records = [record(1, 0, [1: -45], id: 7), record(1, 10, [1: -60, 2: -90], id: 8), record(1, 20, [1: -70], id: 9)]
        let fix = try #require(locator(records, floors: 1, k: 1).locate([1: -50]))
        #expect(fix.estimate.x == 0)
        #expect(fix.estimate.floorID == 1)
        #expect(fix.building == "A")
        #expect(fix.nearestLocationID == 7)
        #expect(fix.estimate.method == "wifi-knn")
    }

    @Test func neighboursAreWeightedByInverseDistance() throws {
        // Scan 0.5 on radio 1. Record at x=0: 0.55 → d = 0.05 / 1.05. Record at x=10: (0.4, 0.1) →
        // d = (0.1 + 0.1) / 1.0 = 0.2. Record at x=20: 0.3 → d = 0.25, not among the two nearest.
        let records = [record(1, 0, [1: -45]), record(1, 10, [1: -60, 2: -90]), record(1, 20, [1: -70])]
        let fix = try #require(locator(records, floors: 2, k: 2).locate([1: -50]))
        let near = 1 / (0.05 / 1.05), far = 1 / 0.2
        #expect(abs(fix.estimate.x - 10 * far / (near + far)) < 1e-4)
    }

    @Test func aPowerAboveOneLetsTheNearestNeighboursOutweighFartherOnes() throws {
        // As in the neighbour test above: x=0 at d = 0.05 / 1.05 (weight 21), x=10 at d = 0.2 (weight 5).
        let records = [record(1, 0, [1: -45]), record(1, 10, [1: -60, 2: -90]), record(1, 20, [1: -70])]
        let squared = WiFiKNNLocator(
            records: records, representation: linear,
            settings: .init(buildingVoters: 1, floorVoters: 1, neighbours: 2, positionWeightPower: 2))
        let fix = try #require(squared.locate([1: -50]))
        let near = 1 / (0.05 / 1.05), far = 1 / 0.2
        #expect(abs(fix.estimate.x - 10 * far * far / (near * near + far * far)) < 1e-4)
    }

    @Test func onlyNeighboursNearlyAsNearAsTheNearestAreAveraged() throws {
        // x=0 at d = 0.0476, x=10 at d = 0.2: within 5 times the nearest distance, not within 2 times.
        let records = [record(1, 0, [1: -45]), record(1, 10, [1: -60, 2: -90]), record(1, 20, [1: -70])]
        func x(ratio: Double) throws -> Double {
            let knn = WiFiKNNLocator(
                records: records, representation: linear,
                settings: .init(buildingVoters: 1, floorVoters: 1, neighbours: 2, neighbourDistanceRatio: ratio))
            return try #require(knn.locate([1: -50])).estimate.x
        }
        #expect(try x(ratio: 2) == 0)
        let near = 1 / (0.05 / 1.05), far = 1 / 0.2
        #expect(abs(try x(ratio: 5) - 10 * far / (near + far)) < 1e-4)
    }

    @Test func aHigherFloorVotePowerLetsTheNearestLocationOutvoteACrowd() throws {
        // Floor 2's location weighs 21, each of floor 1's three weighs 15.67: floor 1 wins
        // at power 3 (9,261 against 11,537) and floor 2 at power 4 (194,481 against 180,733).
        let records = [
            record(2, 100, [1: -45]),
            record(1, 10, [1: -56]), record(1, 20, [1: -56]), record(1, 30, [1: -56]),
        ]
        func floor(power: Double) throws -> Int64? {
            let knn = WiFiKNNLocator(
                records: records, representation: linear,
                settings: .init(buildingVoters: 1, floorVoters: 4, neighbours: 1, floorVoteWeightPower: power))
            return try #require(knn.locate([1: -50])).estimate.floorID
        }
        #expect(try floor(power: 3) == 1)
        #expect(try floor(power: 4) == 2)
    }

    @Test func theFloorIsVotedByMoreNeighboursThanThePositionUses() throws {
        // One fingerprint on floor 2 is nearest (0.55 → d = 0.05 / 1.05, weight 21); three on floor 1
        // are a little farther (0.44 → d = 0.06 / 0.94, weight 15.7 each, 47 together).
        let records = [
            record(2, 100, [1: -45]),
            record(1, 10, [1: -56]), record(1, 20, [1: -56]), record(1, 30, [1: -56]),
        ]
        let scan = [1: -50.0]
        let alone = try #require(locator(records, floors: 1, k: 1).locate(scan))
        #expect(alone.estimate.floorID == 2)
        #expect(alone.estimate.x == 100)
        let voted = try #require(locator(records, floors: 4, k: 3).locate(scan))
        #expect(voted.estimate.floorID == 1)
        #expect(abs(voted.estimate.x - 20) < 1e-9)
    }

    @Test func theBuildingIsDecidedFirst() throws {
        // Building B's single fingerprint is nearest, but building A's three outvote it; the floor
        // and position then come from building A only, though B's fingerprint is on floor 1 too.
        let records = [
            record(1, 500, [1: -45], building: "B"),
            record(1, 10, [1: -56]), record(1, 20, [1: -56]), record(1, 30, [1: -56]),
        ]
        let fix = try #require(locator(records, buildings: 4, floors: 4, k: 4).locate([1: -50]))
        #expect(fix.building == "A")
        #expect(abs(fix.estimate.x - 20) < 1e-9)
    }

    @Test func theFloorIsJudgedOnLocationMeansThePositionOnSamples() throws {
        // The location at x=100 (floor 2) has one sample equal to the scan and one hearing another
        // radio: its mean (0.25, 0.25) is at d = (0.25 + 0.25) / 1.0 = 0.5. The location at x=0
        // (floor 1) is at d = 0.1 / 0.9. Sample by sample floor 2 would win; by location, floor 1.
        let records = [record(2, 100, [1: -50]), record(2, 100, [2: -50]), record(1, 0, [1: -60])]
        let fix = try #require(locator(records, floors: 1, k: 1).locate([1: -50]))
        #expect(fix.estimate.floorID == 1)
        #expect(fix.estimate.x == 0)
    }

    @Test func locationMeansAverageThePowedValuesOfTheirSamples() throws {
        let records = [record(2, 100, [1: -50]), record(2, 100, [2: -50]), record(1, 0, [1: -60])]
        let locations = FingerprintIndex(records: records, representation: linear, grouping: .meanPerLocation)
        #expect(locations.count == 2)
        let shared = try #require(locations.distances(to: [1: -50]))
        let byRecord = Dictionary(uniqueKeysWithValues: zip(shared.records, shared.distances))
        #expect(abs((byRecord[0] ?? 1) - 0.5) < 1e-12)
        #expect(abs((byRecord[1] ?? 1) - 0.1 / 0.9) < 1e-12)
    }

    @Test func radiosTheSurveyNeverHeardAreIgnored() throws {
        let records = [record(1, 0, [1: -45]), record(1, 10, [1: -70])]
        let knn = locator(records, floors: 1, k: 1)
        #expect(try #require(knn.locate([1: -46, 99: -40])).estimate.x == 0)
        #expect(knn.locate([99: -40]) == nil)
    }
}
