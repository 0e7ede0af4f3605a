import Foundation
@testable import Positioning
import ScanContract
import Testing

@Suite("A sighting window's statistics")
struct SightingWindowTests {
    static let identity = TagIdentity.address(MACAddress(rawValue: 1))
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func countMedianAndStrongest() throws {
        var window = SightingWindow()
        for rssi in [-70.0, -62, -81, .nan, -66] { window.add(rssi) }
        let sighting = try #require(window.sighting(of: Self.identity, from: Self.start, to: Self.start.addingTimeInterval(2)))
        #expect(sighting.count == 4, "the non-finite reading is dropped")
        #expect(sighting.medianRSSI == -68)
        #expect(sighting.maxRSSI == -62)
        #expect(sighting.windowEnd.timeIntervalSince(sighting.windowStart) == 2)
        #expect(throws: Never.self) { try SightingBatch(scannerID: .default, sightings: [sighting]).validate() }
    }

    @Test func preprocessedDecimalsStayValid() throws {
        var window = SightingWindow()
        window.add(-56.5)
        let sighting = try #require(window.sighting(of: Self.identity, from: Self.start, to: Self.start))
        #expect(sighting.medianRSSI == -56.5 && sighting.maxRSSI == -56, "the strongest is rounded up, never below the median")
        #expect(throws: Never.self) { try SightingBatch(scannerID: .default, sightings: [sighting]).validate() }
    }

    @Test func nothingHeardIsNoSighting() {
        #expect(SightingWindow().sighting(of: Self.identity, from: Self.start, to: Self.start) == nil)
        #expect(SightingWindow().median == nil)
    }
}
