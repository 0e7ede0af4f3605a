import Foundation
import Positioning
import Testing

@Suite("Dwell counting from tracks of positions")
struct DwellCounterTests {
    let origin = Date(timeIntervalSince1970: 1_800_000_000)

    func sample(_ track: String, _ second: Double, _ place: Int64?) -> DwellSample {
        DwellSample(track: track, time: origin.addingTimeInterval(second), place: place)
    }

    @Test func aRunOfPositionsInOnePlaceIsOneStay() {
        let tallies = DwellCounter(maxGap: 60).count([
            sample("a", 0, 1), sample("a", 10, 1), sample("a", 25, 1), sample("a", 30, 2), sample("a", 40, 2),
        ])
        #expect(tallies == [1: DwellTally(visits: 1, seconds: 25), 2: DwellTally(visits: 1, seconds: 10)])
    }

    @Test func leavingAndComingBackIsTwoVisits() {
        let tallies = DwellCounter(maxGap: 60).count([
            sample("a", 0, 1), sample("a", 5, 1), sample("a", 10, nil), sample("a", 20, 1), sample("a", 50, 1),
        ])
        #expect(tallies == [1: DwellTally(visits: 2, seconds: 35)])
    }

    @Test func aLongSilenceEndsTheStay() {
        let tallies = DwellCounter(maxGap: 60).count([sample("a", 0, 1), sample("a", 30, 1), sample("a", 200, 1), sample("a", 210, 1)])
        #expect(tallies == [1: DwellTally(visits: 2, seconds: 40)])
    }

    @Test func tracksAreCountedApartAndSummed() {
        // b's first position follows a's last one in the same place by 1 s: still another stay.
        let tallies = DwellCounter(maxGap: 60).count([
            sample("a", 0, 1), sample("a", 20, 1), sample("b", 21, 1), sample("b", 31, 1), sample("b", 40, 3),
        ])
        #expect(tallies == [1: DwellTally(visits: 2, seconds: 30), 3: DwellTally(visits: 1, seconds: 0)])
    }

    @Test func timeGoingBackwardsEndsTheStay() {
        let tallies = DwellCounter(maxGap: 60).count([sample("a", 50, 1), sample("a", 10, 1), sample("a", 20, 1)])
        #expect(tallies == [1: DwellTally(visits: 2, seconds: 10)])
    }

    @Test func nothingOrNowhereCountsNothing() {
        #expect(DwellCounter().count([]).isEmpty)
        #expect(DwellCounter().count([sample("a", 0, nil), sample("a", 5, nil)]).isEmpty)
    }

    @Test func theNearestItemWithinTheRadiusOnTheSameFloor() {
        let items = [
            ItemSpot(id: 1, floorID: 1, x: 0, y: 0), ItemSpot(id: 2, floorID: 1, x: 4, y: 0), ItemSpot(id: 3, floorID: 2, x: 1, y: 0),
        ]
        #expect(ItemSpot.nearest(to: 1, 0, floorID: 1, among: items) == 1)
        #expect(ItemSpot.nearest(to: 3, 0, floorID: 1, among: items) == 2)
        #expect(ItemSpot.nearest(to: 2, 0, floorID: 1, among: items) == 1)  // a tie: the lower ID
        #expect(ItemSpot.nearest(to: 1, 0, floorID: 2, among: items) == 3)
        #expect(ItemSpot.nearest(to: 20, 0, floorID: 1, among: items) == nil)
        #expect(ItemSpot.nearest(to: 1, 0, floorID: 3, among: items) == nil)
    }
}
