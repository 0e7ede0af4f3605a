#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// Gathers the RSSI of one emitter heard by one scanner over one window and closes it into a
/// ``Sighting``: the count, the median and the strongest. What a fixed scanner sends instead of
/// every advertisement.
public struct SightingWindow: Hashable, Sendable {
    public private(set) var readings: [Double] = []

    public init() {}

    public mutating func add(_ rssi: Double) {
        guard rssi.isFinite else { return }
        readings.append(rssi)
    }

    /// The median of what was heard; nil when nothing was.
    public var median: Double? {
        guard !readings.isEmpty else { return nil }
        let sorted = readings.sorted(), middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The window as a sighting of `identity` from `start` to `end`; nil when nothing was heard.
    /// RSSI outside what a receiver reports is clamped to ``SightingBatch/rssiRange``.
    public func sighting(of identity: TagIdentity, from start: Date, to end: Date) -> Sighting? {
        guard let median, let strongest = readings.max() else { return nil }
        let range = SightingBatch.rssiRange
        let clampedMedian = min(max(median, range.lowerBound), range.upperBound)
        let clampedMax = min(max(strongest.rounded(.up), clampedMedian.rounded(.up)), range.upperBound)
        return Sighting(
            identity: identity, windowStart: start, windowEnd: end, count: readings.count,
            medianRSSI: clampedMedian, maxRSSI: Int(clampedMax)
        )
    }
}
