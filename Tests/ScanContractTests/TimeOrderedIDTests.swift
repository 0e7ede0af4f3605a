import Foundation
import ScanContract
import Testing

@Suite("Time-ordered IDs")
struct TimeOrderedIDTests {
    /// RFC 9562's version 7 example (appendix A.6): 2022-02-22 19:22:22 UTC, its random bits.
    @Test func theRFCExample() throws {
        let example = try #require(UUID(uuidString: "017F22E2-79B0-7CC3-98C4-DC0C0C07398F"))
        var random = example.uuid
        random.0 = 0xFF
        random.5 = 0xFF
        random.6 = 0xFC // the version nibble is overwritten
        random.8 = 0x18 // and so are the variant bits
        let made = UUID.timeOrdered(at: Date(timeIntervalSince1970: 1_645_557_742), random: random)
        #expect(made == example)
    }

    @Test func timesOutsideTheFieldAreClamped() {
        let random = UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!.uuid
        let before1970 = UUID.timeOrdered(at: Date(timeIntervalSince1970: -5), random: random)
        #expect(before1970.uuidString.hasPrefix("00000000-0000-7FFF-BFFF"))
        let farFuture = UUID.timeOrdered(at: Date(timeIntervalSince1970: 1e15), random: random)
        #expect(farFuture.uuidString.hasPrefix("FFFFFFFF-FFFF-7FFF-BFFF"))
    }

    /// A reading sent without an ID gets a time-ordered one made from its own time.
    @Test func aReadingWithoutAnIDGetsOneOfItsTime() throws {
        let json = #"{"kind":"wifi","bssid":"aa:bb:cc:dd:ee:01","frequencyMHz":2412,"rssi":-50,"time":"2025-11-24T16:00:00.123Z"}"#
        let decoded = try JSONCoding.decoder().decode(Measurement.self, from: Data(json.utf8))
        #expect(decoded.id.uuidString.hasPrefix("019AB697-E87B-7"))
    }
}
