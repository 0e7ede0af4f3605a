import Foundation
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Simulated streams over three days from two fixed scanners: one beacon's transmit power drops
/// 6 dB at the start of day 2, the other stays steady with a few dB of noise. `beaconFaded` is
/// raised once for the first, once most of the last day's sightings are weaker, and never for
/// the second. Time is the sightings' own.
@Suite("Faded beacons")
struct BeaconFadeTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    static let rule = BeaconFadeRule(decibels: 5, window: .seconds(86_400), minimumSightings: 10)

    @Test func aBeaconWhosePowerDrops6dBFadesOnce() async throws {
        let site = try await BeaconSilenceTests.site()
        let (database, floor, hall, steady, failing, scanners, statistic) = (
            site.database, site.floor, site.hall, site.steady, site.failing, site.scanners, site.statistic
        )

        var raised: [(hour: Int, events: [PresenceEvent])] = []
        for step in 1...(3 * 144) {
            let seconds = Double(step * 600)
            let noise = Double([0, 2, -1, -2, 1, 3, -3][step % 7])
            for (index, scanner) in scanners.enumerated() {
                let base = index == 0 ? -65.0 : -78.0
                let weaker = seconds > 86_400 ? 6.0 : 0
                let sightings = [
                    BeaconSilenceTests.sighting(minor: 1, at: seconds, rssi: base + noise),
                    BeaconSilenceTests.sighting(minor: 2, at: seconds, rssi: base - 4 + noise - weaker),
                ]
                _ = try await database.ingestSightings(SightingBatch(scannerID: scanner, sightings: sightings), reading: statistic)
            }
            if step % 6 == 0 {
                let events = try await database.markFadedBeacons(Self.rule)
                if !events.isEmpty { raised.append((step / 6, events)) }
            }
        }
        #expect(raised.count == 1 && raised.first?.events.count == 1)
        let event = try #require(raised.first?.events.first)
        #expect(event.kind == .beaconFaded && event.beaconID == failing.id && event.beaconID != steady.id)
        #expect(event.floor == floor.id && event.roomID == hall.id && event.scannerID == nil)
        // Not before half of the last day was weaker, and during day 2.
        let hour = try #require(raised.first?.hour)
        #expect(hour > 36 && hour <= 48, "raised at hour \(hour)")
    }
}
