#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// Journal lines put together for one `write()`: each a ``MeasurementLine`` and its newline, in
/// one buffer, with the IDs of their measurements in the same order.
struct JournalLines {
    private(set) var bytes: [UInt8] = []
    private(set) var ids: [UUID] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity * JSONBytes.typicalCapacity)
        ids.reserveCapacity(capacity)
    }

    var count: Int { ids.count }
    var isEmpty: Bool { ids.isEmpty }

    /// Appends `measurement`'s line; returns its length with the newline.
    @discardableResult
    mutating func append(_ measurement: Measurement) -> Int {
        let start = bytes.count
        MeasurementLine.encode(measurement, into: &bytes)
        bytes.append(Self.newline)
        ids.append(measurement.id)
        return bytes.count - start
    }

    /// Takes the last line back out (one that does not fit in the spool).
    mutating func removeLast(_ length: Int) {
        bytes.removeLast(length)
        ids.removeLast()
    }

    static let newline = UInt8(ascii: "\n")
}
