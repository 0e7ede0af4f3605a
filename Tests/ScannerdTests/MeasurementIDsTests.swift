import Foundation
import Testing
@testable import scannerd

@Suite("Measurement IDs")
struct MeasurementIDsTests {
    /// Far more than one draw from the kernel, so refills are crossed many times.
    @Test func idsAreDistinctTimeOrderedVersion7UUIDs() {
        let ids = MeasurementIDs()
        let time = Date(timeIntervalSince1970: 1_764_000_000.123)
        let drawn = (0..<5_000).map { _ in ids.next(at: time) }
        #expect(Set(drawn).count == drawn.count)
        for id in drawn {
            #expect(id.uuid.6 >> 4 == 7, "version 7 (time-ordered)")
            #expect(id.uuid.8 >> 6 == 0b10, "the RFC 9562 variant")
            #expect(id.uuidString.hasPrefix("019AB697-E87B-7"), "the reading's time in milliseconds first")
        }
        // The random bits after the time vary.
        #expect(Set(drawn.map(\.uuid.15)).count > 1)
    }

    /// Readings of later milliseconds get IDs that sort after: switchd's index grows at its end.
    @Test func laterReadingsSortAfter() {
        let ids = MeasurementIDs()
        let start = Date(timeIntervalSince1970: 1_764_000_000)
        // Half a millisecond into each: a whole millisecond may land a hair below it in a Double.
        let drawn = (0..<1_000).map { ids.next(at: start.addingTimeInterval((Double($0) + 0.5) / 1000)) }
        #expect(drawn.map(\.uuidString) == drawn.map(\.uuidString).sorted())
    }
}
