@testable import Positioning
import Testing

@Suite("Nearest fingerprints by cells: the answers of ranking every fingerprint")
struct FingerprintIndexNearestTests {
    /// A simulated three-floor survey (several hundred samples, so there are many cells to skip)
    /// and scans taken elsewhere in the same building.
    func survey(samples: Int, seed: UInt64) -> (records: [FingerprintRecord<Int>], scans: [[Int: Double]]) {
        var generator = SeededGenerator(seed: seed)
        let simulation = SimulatedSurvey()
        let site = simulation.site(forSamples: samples, using: &generator)
        let records = simulation.samples(samples, of: site, using: &generator)
        let scans = (0..<60).map { _ in
            let place = site.randomPlace(using: &generator)
            return site.scan(at: place.position, floor: place.floor, using: &generator)
        }
        return (records, scans)
    }

    /// The `k` nearest of `scope` by ranking every fingerprint sharing a radio with the scan.
    func ranked(_ k: Int, _ scan: [Int: Double], in index: FingerprintIndex<Int>, scope: FingerprintScope) -> [(Double, Int32)] {
        guard let shared = index.distances(to: scan) else { return [] }
        let inScope = zip(shared.distances, shared.records).filter { _, record in
            scope.contains(building: index.buildingOf[Int(record)], floor: index.floorOf[Int(record)])
        }
        return Array(inScope.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.prefix(k))
    }

    @Test(arguments: [1, 5, 31])
    func theNearestAreThoseOfRankingEveryFingerprintBitForBit(k: Int) throws {
        let (records, scans) = survey(samples: 900, seed: 16)
        let index = FingerprintIndex(records: records, representation: .standard)
        #expect(index.cells.count > 50)
        for scan in scans {
            // One search for both scopes, as the locator shares it between stages.
            var search = try #require(index.search(scan))
            for scope in [FingerprintScope.everywhere, FingerprintScope(building: 0, floor: 1)] {
                let found = index.nearest(k, in: &search, scope: scope)
                let expected = ranked(k, scan, in: index, scope: scope)
                #expect(found.distances == expected.map(\.0))
                #expect(found.records == expected.map(\.1))
            }
        }
    }

    @Test func withAReachTheAnswerIsCompleteWithinTheReach() throws {
        let (records, scans) = survey(samples: 900, seed: 61)
        let index = FingerprintIndex(records: records, representation: .standard)
        for scan in scans {
            var search = try #require(index.search(scan))
            let found = index.nearest(31, in: &search, scope: .everywhere, reachRatio: 1.5)
            let expected = ranked(31, scan, in: index, scope: .everywhere)
            let reach = expected[0].0 * 1.5
            let within = { (pairs: [(Double, Int32)]) in pairs.filter { $0.0 <= reach }.map(\.1) }
            #expect(within(Array(zip(found.distances, found.records))) == within(expected))
        }
    }

    @Test func aScanAtDistanceZeroStillGetsAllItsNeighbours() throws {
        // The nearest is the scan itself: its reach is unbounded, so the k nearest are all needed.
        let (records, _) = survey(samples: 300, seed: 7)
        let index = FingerprintIndex(records: records, representation: .standard)
        let scan = records[100].readings
        var search = try #require(index.search(scan))
        let found = index.nearest(31, in: &search, scope: .everywhere, reachRatio: 1.5)
        let expected = ranked(31, scan, in: index, scope: .everywhere)
        #expect(found.distances[0] == 0)
        #expect(found.records == expected.map(\.1))
    }

    @Test func oneIndexServesBothStagesWhenEveryLocationHasOneSampleAndAnswersTheSame() throws {
        let (records, scans) = survey(samples: 900, seed: 5)
        let shared = WiFiKNNLocator(records: records)
        #expect(shared.samplesAreLocations)
        let separate = WiFiKNNLocator(
            samples: FingerprintIndex(records: records, representation: .standard, grouping: .eachSample),
            locations: FingerprintIndex(records: records, representation: .standard, grouping: .meanPerLocation),
            settings: .standard)
        #expect(!separate.samplesAreLocations)
        for scan in scans {
            #expect(shared.locate(scan) == separate.locate(scan))
        }
    }

    @Test func theFloorVotersAreTakenFromTheBuildingVotersOnlyWhenThatIsExact() {
        var voters = NearestFingerprints(capacity: 3)
        for (distance, record) in [(0.1, Int32(4)), (0.2, 7), (0.3, 9)] { voters.offer(distance, record) }
        #expect(voters.restricted(to: 2) { $0 != 7 }?.records == [4, 9])
        // Only one of three is in: a fourth, unseen fingerprint could be the second nearest.
        #expect(voters.restricted(to: 2) { $0 == 4 } == nil)
        var few = NearestFingerprints(capacity: 3)
        few.offer(0.1, 4)
        // Fewer offers than the capacity: every one was kept, so one is all there is.
        #expect(few.restricted(to: 2) { _ in true }?.records == [4])
    }
}
