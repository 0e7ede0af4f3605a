import Evaluation
import Foundation
import Positioning

/// Chooses switchd's tag-tracking settings by cross-validation inside the training parts only:
/// each fold's map is some training points, its tracks are the others, located in process
/// exactly as ``FixedScannerLocator`` and the tag's Kalman filter do in switchd (receive offsets
/// estimated from the fold's map, accuracy scales measured on it, each scanner's latest window
/// within the tracker's horizon, every window's RSSI read by the candidate's statistic, the
/// tag's model fitted on the part with that statistic). The candidate with the smallest mean
/// over the parts of their folds' mean error wins; a tie keeps the earlier candidate (switchd's
/// settings before the selection come first). docs/tags.md has the procedure, written before it ran.
struct TagSettingsSelection {
    struct Candidate: Hashable, Encodable {
        var statistic: TagRSSIStatistic
        /// ``FixedScannerLocator/multilaterationWeight``.
        var multilaterationWeight: Double
        /// ``TagMultilateration/Settings/dropsWorstScanner``.
        var dropsWorstScanner: Bool
        var accelerationNoise: Double

        /// What locates (everything but the filter's noise).
        var locating: Candidate {
            var copy = self
            copy.accelerationNoise = 0
            return copy
        }
    }

    /// The fingerprint's k, chosen by the selection before this one and not searched again.
    static let k = 3

    /// Which selection's candidates are compared (docs/tags.md has each, written before it ran).
    enum Round: String, CaseIterable, Encodable {
        /// RSSI statistic × fusion weight × outlier rule × Kalman noise; switchd's settings before it first.
        case third
        /// The Kalman noise alone, the rest as the third chose; its choice (0.1 m/s²) first.
        case fourth

        var candidates: [Candidate] {
            switch self {
            case .third:
                let before = Candidate(statistic: .median, multilaterationWeight: 1, dropsWorstScanner: false, accelerationNoise: 0.25)
                var all = [before]
                for statistic in TagRSSIStatistic.allCases {
                    for weight in [0, 0.5, 1, 2] {
                        for drops in [false, true] {
                            for noise in [0.1, 0.25, 0.5] {
                                let candidate = Candidate(statistic: statistic, multilaterationWeight: weight, dropsWorstScanner: drops, accelerationNoise: noise)
                                if candidate != before { all.append(candidate) }
                            }
                        }
                    }
                }
                return all
            case .fourth:
                return [0.1, 0.05, 0.25, 0.5, 1].map {
                    Candidate(statistic: .strongest, multilaterationWeight: 1, dropsWorstScanner: false, accelerationNoise: $0)
                }
            }
        }
    }

    /// The candidates, switchd's settings before the selection first so a tie keeps them.
    var candidates = Round.fourth.candidates

    /// One fold: the training points that make the map, and the held-out tracks (each a time
    /// ordered run of windows, with where the tag was).
    struct Fold {
        var map: [TagReplayScene.CalibrationPoint]
        var tracks: [[TagReplayScene.Window]]
    }

    /// A training part cut into folds, with the tag's model fitted on the whole training part
    /// by each statistic.
    struct Part {
        var name: String
        var receivers: [TagReplayScene.Receiver]
        var models: [TagRSSIStatistic: TagModelFit]
        /// The map's points stand at the fitted tag height (the tag's height was not recorded).
        var mapAtFittedHeight = false
        var folds: [Fold]

        /// The model of every statistic, fitted on `points`.
        ///
        /// - Throws: ``PathLossFitError`` when a statistic gives no plausible fit.
        static func models(_ points: [TagReplayScene.CalibrationPoint], receivers: [TagReplayScene.Receiver]) throws -> [TagRSSIStatistic: TagModelFit] {
            var models: [TagRSSIStatistic: TagModelFit] = [:]
            for statistic in TagRSSIStatistic.allCases {
                models[statistic] = try TagModelFit.choose(points, receivers: receivers, statistic: statistic)
            }
            return models
        }
    }

    struct Score: Encodable {
        var candidate: Candidate
        /// Part name → mean error over its folds' windows, metres.
        var parts: [String: Double]
        var mean: Double
    }

    struct Output: Encodable {
        var chosen: Candidate
        var scores: [Score]
    }

    /// The tracker's horizon: a scanner's window counts for this long after its end, seconds.
    var horizon = 2.5
    /// The fingerprint map floor ID (one floor).
    static let floorID: Int64 = 1

    func select(_ parts: [Part]) -> Output {
        var errors: [Candidate: [String: Double]] = [:]
        for part in parts {
            for locating in Set(candidates.map(\.locating)) {
                let estimates = part.folds.map { locate($0, part: part, settings: locating) }
                for candidate in candidates where candidate.locating == locating {
                    var all: [Double] = []
                    for (fold, tracks) in zip(part.folds, estimates) {
                        all += smoothErrors(fold, estimates: tracks, noise: candidate.accelerationNoise)
                    }
                    errors[candidate, default: [:]][part.name] = all.isEmpty ? .infinity : all.reduce(0, +) / Double(all.count)
                }
            }
        }
        let scores = candidates.map { candidate in
            let byPart = errors[candidate] ?? [:]
            return Score(candidate: candidate, parts: byPart, mean: byPart.values.reduce(0, +) / Double(max(byPart.count, 1)))
        }
        var best = scores[0]
        for score in scores.dropFirst() where score.mean < best.mean { best = score }
        return Output(chosen: best.candidate, scores: scores)
    }

    /// The unsmoothed estimates of every window of the fold's tracks (nil where neither method
    /// placed it), by the candidate's statistic, fusion weight and outlier rule.
    private func locate(_ fold: Fold, part: Part, settings: Candidate) -> [[PositionEstimate?]] {
        guard let model = part.models[settings.statistic] else { return fold.tracks.map { $0.map { _ in nil } } }
        let txPower = model.txPower.rounded()
        let names = part.receivers.map(\.name)
        var points: [TagReferencePoint] = []
        var samples: [Int: [ReceiveOffsetSample]] = [:]
        for var point in fold.map {
            if part.mapAtFittedHeight { point.z = model.tagHeight }
            var windows: [[String: Double]] = []
            for window in point.windows {
                var losses: [String: Double] = [:]
                for (index, heard) in window {
                    guard let rssi = heard.rssi(settings.statistic) else { continue }
                    losses[names[index]] = txPower - rssi
                    let r = part.receivers[index]
                    let d = ((point.x - r.x) * (point.x - r.x) + (point.y - r.y) * (point.y - r.y) + (point.z - r.z) * (point.z - r.z)).squareRoot()
                    samples[index, default: []].append(ReceiveOffsetSample(rssi: rssi, txPower: txPower, distance: d, exponent: model.exponent))
                }
                if !losses.isEmpty { windows.append(losses) }
            }
            if !windows.isEmpty { points.append(TagReferencePoint(floorID: Self.floorID, x: point.x, y: point.y, height: point.z, windows: windows)) }
        }
        var placements: [String: FixedScannerHearing] = [:]
        for (index, r) in part.receivers.enumerated() {
            placements[r.name] = FixedScannerHearing(
                scanner: r.name, floorID: Self.floorID, x: r.x, y: r.y, height: r.z,
                receiveOffset: samples[index].flatMap { ReceiveOffsetEstimate($0)?.offset } ?? 0, pathLossExponent: model.exponent, rssi: 0
            )
        }
        let map = TagFingerprint(points: points, settings: TagFingerprint.Settings(k: Self.k))
        var multilateration = TagMultilateration.Settings(dropsWorstScanner: settings.dropsWorstScanner)
        let scales = TagAccuracyScales(points: points, placements: placements, multilateration: TagMultilateration(settings: multilateration), fingerprint: map)
        multilateration.tagHeight = model.tagHeight
        let locator = FixedScannerLocator(
            multilateration: TagMultilateration(settings: multilateration), fingerprint: map, scales: scales,
            multilaterationWeight: settings.multilaterationWeight
        )
        return fold.tracks.map { track in
            var latest: [Int: (end: Double, rssi: Double)] = [:]
            return track.map { window in
                for (index, heard) in window.heard {
                    if let rssi = heard.rssi(settings.statistic) { latest[index] = (window.end, rssi) }
                }
                let hearings = latest.sorted(by: { $0.key < $1.key }).compactMap { index, heard -> FixedScannerHearing? in
                    guard heard.end >= window.end - horizon, var hearing = placements[names[index]] else { return nil }
                    hearing.rssi = heard.rssi
                    return hearing
                }
                return locator.locate(hearings, txPower: txPower)
            }
        }
    }

    /// Each located window's error after the Kalman filter with `noise`, one filter per track.
    private func smoothErrors(_ fold: Fold, estimates: [[PositionEstimate?]], noise: Double) -> [Double] {
        var errors: [Double] = []
        for (track, raw) in zip(fold.tracks, estimates) {
            var filter = PositionKalmanFilter(settings: PositionKalmanFilter.Settings(accelerationNoise: noise))
            for (window, estimate) in zip(track, raw) {
                guard let estimate else { continue }
                let smoothed = filter.update(estimate, at: window.end)
                errors.append(((smoothed.x - window.truthX) * (smoothed.x - window.truthX) + (smoothed.y - window.truthY) * (smoothed.y - window.truthY)).squareRoot())
            }
        }
        return errors
    }
}
