import Foundation
import Positioning

/// A simulated site whose receivers differ, for showing what per-scanner calibration does
/// through switchd: six fixed scanners around a 24 m × 14 m room, each reading a fixed number of
/// dB above the model (+6, −5, +3, −6, 0, +4), a tag walking two laps of a rectangle inside at
/// 0.5 m/s, and four registered beacons at known positions heard for 40 s each (the calibration
/// switchd estimates the offsets from; also its whole fingerprint map). The simulation's model
/// (−59 dBm at 1 m, exponent 2, 2 dB shadowing, 5 advertisements a second, everything at 1 m
/// height) is the tag's model: nothing is fitted. Seeded, so every run replays the same readings.
struct SimulatedTagReplay {
    static let gains: [Double] = [6, -5, 3, -6, 0, 4]
    static let model = PathLossModel(powerAt1m: -59, exponent: 2, shadowingSigma: 2)
    static let height = 1.0
    /// Where the walk starts, seconds since 1970.
    static let start = 1_700_000_000.0
    var seed: UInt64 = 15
    var window = 2.0
    var speed = 0.5
    var laps = 2
    var advertisementInterval = 0.2
    /// The corners the tag walks through, `laps` times: the site's rectangle by default.
    var path: [(Double, Double)] = [(3, 3), (21, 3), (21, 11), (3, 11), (3, 3)]

    func scene() -> TagReplayScene {
        var generator = SeededGenerator(seed: seed)
        let corners: [(Double, Double)] = [(0, 0), (12, 0), (24, 0), (0, 14), (12, 14), (24, 14)]
        let receivers = corners.enumerated().map { TagReplayScene.Receiver(name: "sim\($0)", x: $1.0, y: $1.1, z: Self.height) }
        func heard(at x: Double, _ y: Double, by receiver: Int) -> Double {
            let r = receivers[receiver]
            let distance = ((x - r.x) * (x - r.x) + (y - r.y) * (y - r.y)).squareRoot()
            return Double(Self.model.sampleRSSI(atDistance: distance, using: &generator)) + Self.gains[receiver]
        }
        let beacons: [(Double, Double)] = [(6, 7), (18, 7), (12, 4), (12, 10)]
        let perWindow = Int((window / advertisementInterval).rounded())
        let calibration = beacons.map { x, y in
            let windows = (0..<Int(40 / window)).map { _ in
                var heardBy: [Int: SightingWindow] = [:]
                for receiver in receivers.indices {
                    for _ in 0..<perWindow { heardBy[receiver, default: SightingWindow()].add(heard(at: x, y, by: receiver)) }
                }
                return heardBy
            }
            return TagReplayScene.CalibrationPoint(x: x, y: y, z: Self.height, windows: windows)
        }
        var readings: [TagReplayScene.Reading] = []
        var time = Self.start
        for _ in 0..<laps {
            for (from, to) in zip(path, path.dropFirst()) {
                let length = ((to.0 - from.0) * (to.0 - from.0) + (to.1 - from.1) * (to.1 - from.1)).squareRoot()
                let steps = Int((length / speed / advertisementInterval).rounded())
                for step in 0..<steps {
                    let f = Double(step) / Double(steps)
                    let x = from.0 + f * (to.0 - from.0), y = from.1 + f * (to.1 - from.1)
                    for receiver in receivers.indices {
                        readings.append(TagReplayScene.Reading(time: time, receiver: receiver, rssi: heard(at: x, y, by: receiver), x: x, y: y))
                    }
                    time += advertisementInterval
                }
            }
        }
        let model = TagModelFit(txPower: Self.model.powerAt1m, exponent: Self.model.exponent, tagHeight: Self.height, spread: Self.model.shadowingSigma, samples: 0)
        return TagReplayScene(
            receivers: receivers, model: model, calibration: calibration,
            windows: TagReplayScene.windows(readings, seconds: window, origin: Self.start)
        )
    }

    /// The fourth selection's simulated walks (``TagSettingsSelection``): one fold per seed, its
    /// map the four beacons heard as the site hears them, its track a walk there and back along an
    /// open path with right-angle turns and a reversal at each end, so the filter's noise is
    /// tried where the tag turns. None of the seeds is the reported site's (15).
    ///
    /// - Throws: ``PathLossFitError`` when a statistic gives no plausible fit of the model.
    static func selectionPart(seeds: [UInt64] = [101, 102, 103]) throws -> TagSettingsSelection.Part {
        let there: [(Double, Double)] = [(3, 3), (21, 3), (21, 11), (9, 11), (9, 6)]
        let scenes = seeds.map { SimulatedTagReplay(seed: $0, laps: 1, path: there + there.reversed().dropFirst()).scene() }
        let receivers = scenes[0].receivers
        return TagSettingsSelection.Part(
            name: "simulated walks (\(seeds.count) seeds, turns and reversals)", receivers: receivers,
            models: try TagSettingsSelection.Part.models(scenes.flatMap(\.calibration), receivers: receivers),
            folds: scenes.map { TagSettingsSelection.Fold(map: $0.calibration, tracks: [$0.windows]) }
        )
    }
}
