import Foundation
import Positioning

extension TagReplayScene {
    /// One reading of the tag by a receiver, where the tag truly was then.
    struct Reading {
        var time: Double
        var receiver: Int
        var rssi: Double
        var x: Double
        var y: Double
    }

    /// Cuts readings into windows of `seconds` from `origin` (the first reading's time by
    /// default), before `until` when given; each window's truth is the mean true position of its
    /// readings (as the BLE evaluation scores), its end `origin + (k + 1)·seconds + shift`.
    static func windows(_ readings: [Reading], seconds: Double, origin: Double? = nil, until end: Double? = nil, shift: Double = 0) -> [Window] {
        guard let first = readings.min(by: { $0.time < $1.time }) else { return [] }
        let start = origin ?? first.time
        var bins: [Int: (heard: [Int: SightingWindow], x: Double, y: Double, n: Int)] = [:]
        for reading in readings {
            if let end, reading.time >= end { continue }
            let bin = Int(((reading.time - start) / seconds).rounded(.down))
            var entry = bins[bin] ?? ([:], 0, 0, 0)
            entry.heard[reading.receiver, default: SightingWindow()].add(reading.rssi)
            entry = (entry.heard, entry.x + reading.x, entry.y + reading.y, entry.n + 1)
            bins[bin] = entry
        }
        return bins.keys.sorted().compactMap { bin in
            guard let entry = bins[bin] else { return nil }
            return Window(
                end: start + Double(bin + 1) * seconds + shift, length: seconds, heard: entry.heard,
                truthX: entry.x / Double(entry.n), truthY: entry.y / Double(entry.n)
            )
        }
    }
}
