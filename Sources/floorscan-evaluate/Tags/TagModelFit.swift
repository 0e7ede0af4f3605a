import Foundation
import Positioning

/// The settings of a replay, chosen on its training part only: the tag's power at 1 m, the
/// path-loss exponent and the height the tag is carried at, from a least-squares log-distance fit
/// of the training windows (every receiver pooled) at each candidate height, keeping the height
/// whose fit leaves the smallest spread; each window's RSSI read as `statistic`. The replays fit
/// in the median's sense (``TagRSSIStatistic/median``), the sense an admin declares a tag's power
/// in, so that switchd's correction of the figure it reads (its gap above the median) is exercised.
struct TagModelFit: Encodable {
    var txPower: Double
    var exponent: Double
    var tagHeight: Double
    var spread: Double
    var samples: Int

    static let candidateHeights = stride(from: 0.2, through: 2.0, by: 0.1).map { ($0 * 10).rounded() / 10 }

    /// - Throws: ``PathLossFitError`` when no height gives a plausible fit.
    static func choose(
        _ points: [TagReplayScene.CalibrationPoint], receivers: [TagReplayScene.Receiver], heights: [Double] = candidateHeights,
        statistic: TagRSSIStatistic
    ) throws -> TagModelFit {
        var best: TagModelFit?
        var lastError: PathLossFitError = .tooFewSamples(usable: 0, needed: 3)
        for height in heights {
            var samples: [PathLossSample] = []
            for point in points {
                for window in point.windows {
                    for (index, heard) in window {
                        guard let rssi = heard.rssi(statistic) else { continue }
                        let r = receivers[index]
                        let d = ((point.x - r.x) * (point.x - r.x) + (point.y - r.y) * (point.y - r.y) + (height - r.z) * (height - r.z)).squareRoot()
                        samples.append(PathLossSample(distance: d, rssi: rssi))
                    }
                }
            }
            do {
                let model = try PathLossModel.fit(samples)
                let fit = TagModelFit(
                    txPower: model.powerAt1m, exponent: model.exponent, tagHeight: height, spread: model.shadowingSigma, samples: samples.count
                )
                if best.map({ fit.spread < $0.spread }) ?? true { best = fit }
            } catch {
                lastError = error
            }
        }
        guard let best else { throw lastError }
        return best
    }
}
