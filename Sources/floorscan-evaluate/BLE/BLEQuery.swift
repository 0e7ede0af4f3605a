import Foundation
import Positioning

/// One test or validation window: what was heard (emitter → mean RSSI over the window), where
/// the truth was, when the window started and which sequence (track or point) it belongs to.
struct BLEQuery {
    var window: [Emitter: Double]
    var x: Double
    var y: Double
    var time: Double
    var sequence: Int

    /// Groups timed readings into consecutive windows of `seconds` from `origin` (default: the
    /// first reading): the window's RSSI per emitter is the mean of its readings, its truth the
    /// mean position. Readings at or after `end` are left out; windows without readings are absent.
    static func windows(
        _ readings: [(time: Double, emitter: Emitter, rssi: Double, x: Double, y: Double)],
        seconds: Double, sequence: Int, origin: Double? = nil, until end: Double? = nil
    ) -> [BLEQuery] {
        guard let first = readings.first, seconds > 0 else { return [] }
        let start = origin ?? first.time
        var bins: [Int: (sums: [Emitter: (Double, Int)], x: Double, y: Double, n: Int)] = [:]
        for reading in readings {
            if let end, reading.time >= end { continue }
            let bin = Int(((reading.time - start) / seconds).rounded(.down))
            var entry = bins[bin] ?? ([:], 0, 0, 0)
            let sum = entry.sums[reading.emitter] ?? (0, 0)
            entry.sums[reading.emitter] = (sum.0 + reading.rssi, sum.1 + 1)
            entry = (entry.sums, entry.x + reading.x, entry.y + reading.y, entry.n + 1)
            bins[bin] = entry
        }
        return bins.keys.sorted().compactMap { bin in
            guard let entry = bins[bin] else { return nil }
            return BLEQuery(
                window: entry.sums.mapValues { $0.0 / Double($0.1) }, x: entry.x / Double(entry.n), y: entry.y / Double(entry.n),
                time: start + Double(bin) * seconds, sequence: sequence
            )
        }
    }
}
