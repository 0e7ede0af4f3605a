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
        let receivers = data.receivers.map { TagReplayScene.Receiver(name: $0.alias, x: $0.x, y: $0.y, z: $0.z) }
        let byAlias = Dictionary(uniqueKeysWithValues: data.receivers.enumerated().map { ($1.alias, $0) })
        let byMAC = Dictionary(uniqueKeysWithValues: data.receivers.enumerated().map { ($1.mac, $0) })
        let grouped = Dictionary(grouping: data.samples) { PointKey(set: $0.set, x: $0.x, y: $0.y, z: $0.z) }
        let keys = grouped.keys.sorted()

        func pointWindows(_ key: PointKey, origin: Double) -> [TagReplayScene.Window] {
            let readings = (grouped[key] ?? []).compactMap { s in
                byAlias[s.receiverAlias].map { TagReplayScene.Reading(time: s.time, receiver: $0, rssi: s.rssi, x: s.x, y: s.y) }
            }
            let end = (300 / window).rounded(.down) * window
            return TagReplayScene.windows(readings, seconds: window, origin: 0, until: end, shift: origin)
        }
        func calibration(_ set: Int?) -> [TagReplayScene.CalibrationPoint] {
            keys.filter { set == nil || $0.set == set }.map { key in
                let windows = pointWindows(key, origin: 0)
                let step = max(windows.count / calibrationWindowsPerPoint, 1)
                let chosen = stride(from: 0, to: windows.count, by: step).prefix(calibrationWindowsPerPoint).map { windows[$0].heard }
                return TagReplayScene.CalibrationPoint(x: key.x, y: key.y, z: key.z, windows: chosen)
            }
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
            receivers: receivers, model: try TagModelFit.choose(allPoints, receivers: receivers), calibration: allPoints, windows: trackWindows
        )

        let setOne = calibration(1)
        var staticWindows: [TagReplayScene.Window] = []
        for (index, key) in keys.filter({ $0.set == 2 }).enumerated() {
            let windows = pointWindows(key, origin: Self.staticOrigin + Double(index) * Self.pointSpacing)
            staticWindows += windows.prefix(staticWindowsPerPoint ?? windows.count)
        }
        let staticScene = TagReplayScene(
            receivers: receivers, model: try TagModelFit.choose(setOne, receivers: receivers), calibration: setOne, windows: staticWindows
        )
        return [("tracks", trackScene), ("static-train1-test2", staticScene)]
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
