import Evaluation
import Foundation
import Positioning

/// The Position Annotated BLE RSSI Dataset as tag-tracking scenes: its 12 receivers are the
/// fixed scanners, its beacon the tag. Two parts, as `ble-annotated` scores them:
/// - `tracks`: the 9 walked tracks in `window`-second windows, trained on every surveyed point;
/// - `static-train1-test2`: set 2's points (another day) in `window`-second windows, trained on
///   set 1's.
/// Training (the model fit, the survey that gives switchd its fingerprints and calibration)
/// reads the first 300 s of the training points, `calibrationWindowsPerPoint` windows of each,
/// evenly spaced.
struct AnnotatedTagReplay {
    var window = 2.0
    /// Windows per point of the static part (consecutive, from the start); nil for all 150.
    var staticWindowsPerPoint: Int?
    /// Tracks of the tracks part; nil for all 9.
    var tracks: Int?
    var calibrationWindowsPerPoint = 30

    /// Each test point starts this far after the previous, so smoothing never carries one
    /// point's track into the next (``PositionKalmanFilter/Settings/maximumGap`` is 30 s).
    static let pointSpacing = 1000.0
    /// Where the static part's synthetic clock starts (seconds since 1970).
    static let staticOrigin = 1_800_000_000.0

    func scenes(_ data: AnnotatedBLEEvaluation.Data) throws -> [(name: String, scene: TagReplayScene)] {
        let survey = Survey(data, replay: self)
        let receivers = survey.receivers
        let byMAC = Dictionary(uniqueKeysWithValues: data.receivers.enumerated().map { ($1.mac, $0) })
        let keys = survey.keys
        func calibration(_ set: Int?) -> [TagReplayScene.CalibrationPoint] {
            keys.filter { set == nil || $0.set == set }.map(survey.calibrationPoint)
        }

        let allPoints = calibration(nil)
        var trackWindows: [TagReplayScene.Window] = []
        for track in data.tracks.prefix(tracks ?? data.tracks.count) {
            let readings = track.samples.compactMap { s in
                byMAC[s.receiverMAC].map { TagReplayScene.Reading(time: s.time, receiver: $0, rssi: s.rssi, x: s.x, y: s.y) }
            }
            trackWindows += TagReplayScene.windows(readings, seconds: window)
        }
        let trackScene = TagReplayScene(
            receivers: receivers, model: try TagModelFit.choose(allPoints, receivers: receivers, statistic: .median), calibration: allPoints, windows: trackWindows
        )

        let setOne = calibration(1)
        var staticWindows: [TagReplayScene.Window] = []
        for (index, key) in keys.filter({ $0.set == 2 }).enumerated() {
            let windows = survey.windows(key, origin: Self.staticOrigin + Double(index) * Self.pointSpacing)
            staticWindows += windows.prefix(staticWindowsPerPoint ?? windows.count)
        }
        let staticScene = TagReplayScene(
            receivers: receivers, model: try TagModelFit.choose(setOne, receivers: receivers, statistic: .median), calibration: setOne, windows: staticWindows
        )
        return [("tracks", trackScene), ("static-train1-test2", staticScene)]
    }

    /// The training parts cut into folds for ``TagSettingsSelection``, nothing of the scored
    /// parts read: `tracks` (trained on both days) as day 1's points → day 2's and back;
    /// `static` (trained on day 1) as day 1's points in `staticFolds` interleaved folds. Each held-out
    /// point is a track of its first `selectionWindowsPerPoint` consecutive windows; the maps
    /// are built as the replays build theirs (`calibrationWindowsPerPoint` windows a point).
    func selectionParts(_ data: AnnotatedBLEEvaluation.Data, staticFolds: Int = 5, selectionWindowsPerPoint: Int = 30) throws -> [TagSettingsSelection.Part] {
        let survey = Survey(data, replay: self)
        let receivers = survey.receivers
        let mapPoint = survey.calibrationPoint
        func fold(map: [PointKey], held: [PointKey]) -> TagSettingsSelection.Fold {
            TagSettingsSelection.Fold(
                map: map.map(mapPoint),
                tracks: held.enumerated().map { Array(survey.windows($1, origin: Double($0) * Self.pointSpacing).prefix(selectionWindowsPerPoint)) }
            )
        }
        let keys = survey.keys
        let dayOne = keys.filter { $0.set == 1 }, dayTwo = keys.filter { $0.set == 2 }
        let both = TagSettingsSelection.Part(
            name: "position-annotated tracks' training (day 1 ↔ day 2)", receivers: receivers,
            models: try TagSettingsSelection.Part.models(keys.map(mapPoint), receivers: receivers),
            folds: [fold(map: dayOne, held: dayTwo), fold(map: dayTwo, held: dayOne)]
        )
        let staticPart = TagSettingsSelection.Part(
            name: "position-annotated static training (day 1, \(staticFolds) folds)", receivers: receivers,
            models: try TagSettingsSelection.Part.models(dayOne.map(mapPoint), receivers: receivers),
            folds: (0..<staticFolds).map { f in
                let indices = dayOne.indices
                return fold(map: indices.filter { $0 % staticFolds != f }.map { dayOne[$0] }, held: indices.filter { $0 % staticFolds == f }.map { dayOne[$0] })
            }
        )
        return [both, staticPart]
    }

    /// The surveyed points' samples by point, cut as this replay cuts them.
    private struct Survey {
        let receivers: [TagReplayScene.Receiver]
        let byAlias: [String: Int]
        let grouped: [PointKey: [PositionAnnotatedBLE.SurveySample]]
        let keys: [PointKey]
        let window: Double
        let calibrationWindowsPerPoint: Int

        init(_ data: AnnotatedBLEEvaluation.Data, replay: AnnotatedTagReplay) {
            receivers = data.receivers.map { TagReplayScene.Receiver(name: $0.alias, x: $0.x, y: $0.y, z: $0.z) }
            byAlias = Dictionary(uniqueKeysWithValues: data.receivers.enumerated().map { ($1.alias, $0) })
            grouped = Dictionary(grouping: data.samples) { PointKey(set: $0.set, x: $0.x, y: $0.y, z: $0.z) }
            keys = grouped.keys.sorted()
            window = replay.window
            calibrationWindowsPerPoint = replay.calibrationWindowsPerPoint
        }

        /// The point's windows of its first 300 s, their ends moved on by `origin`.
        func windows(_ key: PointKey, origin: Double) -> [TagReplayScene.Window] {
            let readings = (grouped[key] ?? []).compactMap { s in
                byAlias[s.receiverAlias].map { TagReplayScene.Reading(time: s.time, receiver: $0, rssi: s.rssi, x: s.x, y: s.y) }
            }
            let end = (300 / window).rounded(.down) * window
            return TagReplayScene.windows(readings, seconds: window, origin: 0, until: end, shift: origin)
        }

        /// The point as surveyed: `calibrationWindowsPerPoint` of its windows, evenly spaced.
        func calibrationPoint(_ key: PointKey) -> TagReplayScene.CalibrationPoint {
            let all = windows(key, origin: 0)
            let step = max(all.count / calibrationWindowsPerPoint, 1)
            let chosen = stride(from: 0, to: all.count, by: step).prefix(calibrationWindowsPerPoint).map { all[$0].heard }
            return TagReplayScene.CalibrationPoint(x: key.x, y: key.y, z: key.z, windows: chosen)
        }
    }

    private struct PointKey: Hashable, Comparable {
        var set: Int
        var x: Double
        var y: Double
        var z: Double

        static func < (a: PointKey, b: PointKey) -> Bool {
            (a.set, a.x, a.y, a.z) < (b.set, b.x, b.y, b.z)
        }
    }
}
