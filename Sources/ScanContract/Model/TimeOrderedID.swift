#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension UUID {
    /// A time-ordered (version 7, RFC 9562) UUID: the first 48 bits are `time` in milliseconds
    /// since 1970, big-endian, then the version, the variant and the rest of `random`.
    ///
    /// Reading IDs are made this way so that the IDs of one moment sort together: switchd's
    /// unique index on them then grows at its end, one page at a time, instead of taking every
    /// reading into a random page of the whole index (each such page read, dirtied and written
    /// again at each commit). A time before 1970 or past the year 10889 is clamped to the range.
    public static func timeOrdered(at time: Date, random: uuid_t) -> UUID {
        let milliseconds = UInt64(max(0, min(Double(1 << 48 - 1), (time.timeIntervalSince1970 * 1000).rounded(.down))))
        var uuid = random
        uuid.0 = UInt8(truncatingIfNeeded: milliseconds >> 40)
        uuid.1 = UInt8(truncatingIfNeeded: milliseconds >> 32)
        uuid.2 = UInt8(truncatingIfNeeded: milliseconds >> 24)
        uuid.3 = UInt8(truncatingIfNeeded: milliseconds >> 16)
        uuid.4 = UInt8(truncatingIfNeeded: milliseconds >> 8)
        uuid.5 = UInt8(truncatingIfNeeded: milliseconds)
        uuid.6 = uuid.6 & 0x0F | 0x70 // version 7: time-ordered
        uuid.8 = uuid.8 & 0x3F | 0x80 // the RFC 9562 variant
        return UUID(uuid: uuid)
    }
}
