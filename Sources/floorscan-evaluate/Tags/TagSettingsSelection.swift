import Evaluation
import Foundation
import Positioning

/// Chooses switchd's tag-tracking settings (the fingerprint's k, the Kalman filter's
/// acceleration noise) by cross-validation inside the training parts only: each fold's map is
/// some training points, its tracks are the others, located in process exactly as
/// ``FixedScannerLocator`` and the tag's Kalman filter do in switchd (receive offsets estimated
/// from the fold's map, accuracy scales measured on it, each scanner's latest window within the
/// tracker's horizon). The candidate with the smallest mean over the parts of their folds' mean
/// error wins; a tie keeps the earlier candidate (the defaults come first).
struct TagSettingsSelection {
    struct Candidate: Hashable, Encodable {
        var k: Int
        var accelerationNoise: Double
    }

    /// switchd's defaults before this selection first, so a tie keeps them.
    static let candidates: [Candidate] = {
        var all = [Candidate(k: 5, accelerationNoise: 0.5)]
        for k in [3, 5, 8, 12] {
            for noise in [0.25, 0.5, 1, 2] where !(k == 5 && noise == 0.5) {
                all.append(Candidate(k: k, accelerationNoise: noise))
            }
        }
        return all
    }()

    /// One fold: the training points that make the map, and the held-out tracks (each a time
    /// ordered run of windows, with where the tag was).
    struct Fold {
        var map: [TagReplayScene.CalibrationPoint]
        var tracks: [[TagReplayScene.Window]]
    }

    /// A training part cut into folds, with the model fitted on the whole training part.
    struct Part {
        var name: String
        var receivers: [TagReplayScene.Receiver]
        var model: TagModelFit
        var folds: [Fold]
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
            for k in Set(Self.candidates.map(\.k)).sorted() {
                let estimates = part.folds.map { locate($0, part: part, k: k) }
                for candidate in Self.candidates where candidate.k == k {
                    var all: [Double] = []
                    for (fold, tracks) in zip(part.folds, estimates) {
                        all += smoothErrors(fold, estimates: tracks, noise: candidate.accelerationNoise)
                    }
                    errors[candidate, default: [:]][part.name] = all.isEmpty ? .infinity : all.reduce(0, +) / Double(all.count)
                }
            }
        }
        let scores = Self.candidates.map { candidate in
            let byPart = errors[candidate] ?? [:]
            return Score(candidate: candidate, parts: byPart, mean: byPart.values.reduce(0, +) / Double(max(byPart.count, 1)))
        }
        var best = scores[0]
        for score in scores.dropFirst() where score.mean < best.mean { best = score }
        return Output(chosen: best.candidate, scores: scores)
    }

    /// The unsmoothed estimates of every window of the fold's tracks (nil where neither method
    /// placed it), with fingerprints of `k` neighbours.
    private func locate(_ fold: Fold, part: Part, k: Int) -> [[PositionEstimate?]] {
        let txPower = part.model.txPower.rounded()
        let names = part.receivers.map(\.name)
        var points: [TagReferencePoint] = []
        var samples: [Int: [ReceiveOffsetSample]] = [:]
        for point in fold.map {
            var windows: [[String: Double]] = []
            for window in point.windows {
                var losses: [String: Double] = [:]
                for (index, heard) in window {
                    guard let rssi = heard.median else { continue }
                    losses[names[index]] = txPower - rssi
                    let r = part.receivers[index]
                    let d = ((point.x - r.x) * (point.x - r.x) + (point.y - r.y) * (point.y - r.y) + (point.z - r.z) * (point.z - r.z)).squareRoot()
                    samples[index, default: []].append(ReceiveOffsetSample(rssi: rssi, txPower: txPower, distance: d, exponent: part.model.exponent))
                }
                if !losses.isEmpty { windows.append(losses) }
            }
            if !windows.isEmpty { points.append(TagReferencePoint(floorID: Self.floorID, x: point.x, y: point.y, height: point.z, windows: windows)) }
        }
        var placements: [String: FixedScannerHearing] = [:]
        for (index, r) in part.receivers.enumerated() {
            placements[r.name] = FixedScannerHearing(
                scanner: r.name, floorID: Self.floorID, x: r.x, y: r.y, height: r.z,
                receiveOffset: samples[index].flatMap { ReceiveOffsetEstimate($0)?.offset } ?? 0, pathLossExponent: part.model.exponent, rssi: 0
            )
        }
        let map = TagFingerprint(points: points, settings: TagFingerprint.Settings(k: k))
        var multilateration = TagMultilateration.Settings()
        let scales = TagAccuracyScales(points: points, placements: placements, multilateration: TagMultilateration(settings: multilateration), fingerprint: map)
        multilateration.tagHeight = part.model.tagHeight
        let locator = FixedScannerLocator(multilateration: TagMultilateration(settings: multilateration), fingerprint: map, scales: scales)
        return fold.tracks.map { track in
            var latest: [Int: (end: Double, rssi: Double)] = [:]
            return track.map { window in
                for (index, heard) in window.heard {
                    if let rssi = heard.median { latest[index] = (window.end, rssi) }
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
