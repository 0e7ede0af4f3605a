import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// ``ExpectedErrorEstimates`` on its own, driven by ``HeldEstimate``: one estimate at a time, only
/// the newest survey version waits, a superseded estimate is dropped.
@Suite struct ExpectedErrorEstimatesTests {
    static func version(_ number: Int64) -> SurveyVersion { SurveyVersion(token: "t", version: number) }

    /// One surveyed location (ID 1) and `extra` unsurveyed ones.
    static func map(extra: Int = 0) throws -> RadioMap {
        let surveyed = RadioMapLocation(
            locationID: 1, floorID: 1, roomID: 1, x: 0, y: 0, emitters: [], scans: [[try Emitter("ap:aa:bb:cc:dd:ee:ff"): -50]])
        let others = (0..<extra).map { RadioMapLocation(locationID: Int64(2 + $0), floorID: 1, roomID: 1, x: 1, y: 1, emitters: [], scans: []) }
        return RadioMap(locations: [surveyed] + others)
    }

    @Test func onlyTheNewestWaitingVersionRunsAndASupersededEstimateIsDropped() async throws {
        let held = HeldEstimate()
        let estimates = ExpectedErrorEstimates(held)
        await estimates.request(try Self.map(), version: Self.version(1))
        await held.started(1)
        // Two newer versions while the first runs: the second replaces the first in waiting.
        await estimates.request(try Self.map(), version: Self.version(2))
        await estimates.request(try Self.map(), version: Self.version(3))
        await held.release(1)
        await held.started(2)
        #expect(await estimates.latest?.version == nil, "version 1's estimate was superseded while it ran")
        await held.release(2)
        await estimates.settled()
        let latest = await estimates.latest
        #expect(latest?.version == Self.version(3))
        #expect(latest?.errors[1]?.metres == 2, "the second call, made for version 3")
        #expect(await held.startedCount == 2, "version 2 never ran")

        // Asking again for the estimated version starts nothing.
        await estimates.request(try Self.map(), version: Self.version(3))
        await estimates.settled()
        #expect(await held.startedCount == 2)
    }

    @Test func aRequestReturnsWhileItsEstimateIsHeld() async throws {
        let held = HeldEstimate()
        let estimates = ExpectedErrorEstimates(held)
        // Returns although the estimate it starts never finishes in this test.
        await estimates.request(try Self.map(), version: Self.version(1))
        await held.started(1)
        #expect(await estimates.latest?.version == nil)
        await estimates.request(try Self.map(), version: Self.version(1))
        #expect(await held.startedCount == 1, "a version already running is not started again")
        await held.release(1)
        await estimates.settled()
        #expect(await estimates.latest?.version == Self.version(1))
    }

    @Test func surveyedLocationsIgnoreUnsurveyedOnes() throws {
        #expect(SurveyedLocations(try Self.map()) == SurveyedLocations(try Self.map(extra: 2)))
        var moved = try Self.map()
        moved.locations[0].x = 2
        #expect(SurveyedLocations(moved) != SurveyedLocations(try Self.map()))
    }
}
