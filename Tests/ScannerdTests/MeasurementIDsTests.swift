import Foundation
import Testing
@testable import scannerd

@Suite("Measurement IDs")
struct MeasurementIDsTests {
    /// Far more than one draw from the kernel, so refills are crossed many times.
    @Test func idsAreDistinctRandomVersion4UUIDs() {
        let ids = MeasurementIDs()
        let drawn = (0..<5_000).map { _ in ids.next() }
        #expect(Set(drawn).count == drawn.count)
        for id in drawn {
            #expect(id.uuid.6 >> 4 == 4, "version 4 (random)")
            #expect(id.uuid.8 >> 6 == 0b10, "the RFC 4122 variant")
        }
        // Random bits vary: not every ID shares its first byte.
        #expect(Set(drawn.map(\.uuid.0)).count > 1)
    }
}
