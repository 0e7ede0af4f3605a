@testable import Positioning
import Testing

@Suite("Best-match vote (the seed system's method)")
struct BestMatchVoteLocatorTests {
    func vote(_ records: [FingerprintRecord<Int>]) -> BestMatchVoteLocator<Int> {
        BestMatchVoteLocator(index: FingerprintIndex(records: records))
    }

    func record(_ floor: Int64, _ x: Double, _ readings: [Int: Double]) -> FingerprintRecord<Int> {
        FingerprintRecord(building: "A", floorID: floor, x: x, y: 0, readings: readings)
    }

    @Test func theFingerprintWithMostVotesWins() throws {
        // Radio 1 is closest at x=0 (1 dB off), radio 2 and 3 at x=10 (0 and 2 dB off).
        let locator = vote([record(1, 0, [1: -61, 2: -90, 3: -40]), record(2, 10, [1: -65, 2: -70, 3: -52])])
        let fix = try #require(locator.locate([1: -60, 2: -70, 3: -50]))
        #expect(fix.estimate.x == 10)
        #expect(fix.estimate.floorID == 2)
        #expect(fix.estimate.method == "best-match-vote")
    }

    @Test func equalVoteCountsSplitThePosition() throws {
        // Radio 1 votes for x=0, radio 2 for x=10: one vote each, so the answer is halfway.
        let locator = vote([record(1, 0, [1: -61, 2: -90]), record(1, 10, [1: -65, 2: -70])])
        let fix = try #require(locator.locate([1: -60, 2: -70]))
        #expect(fix.estimate.x == 5)
        #expect(fix.estimate.floorID == 1)
    }

    @Test func fingerprintsTiedOnOneRadioShareItsVote() throws {
        // Radio 1: x=0 and x=10 are both 1 dB off and get half a vote each; radio 2 is heard only at
        // x=20, which wins with a whole vote.
        let locator = vote([record(1, 0, [1: -59]), record(1, 10, [1: -61]), record(3, 20, [1: -70, 2: -75])])
        let fix = try #require(locator.locate([1: -60, 2: -70]))
        #expect(fix.estimate.x == 20)
        #expect(fix.estimate.floorID == 3)
    }

    @Test func aScanOfUnknownRadiosHasNoAnswer() {
        #expect(vote([record(1, 0, [1: -59])]).locate([2: -60]) == nil)
    }
}
