import Foundation
import Positioning
import Testing
@testable import floorscan_evaluate

/// The cross-validation that chooses the tag tracker's settings, on a floor heard exactly as the
/// log-distance model says: four receivers at the corners of a 10 m square, a 1 m survey grid,
/// and a tag walking across it held out.
struct TagSettingsSelectionTests {
    static let receivers = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)].enumerated().map { index, corner in
        TagReplayScene.Receiver(name: "r\(index)", x: corner.0, y: corner.1, z: 2)
    }
    static let model = TagModelFit(txPower: -59, exponent: 2, tagHeight: 1, spread: 0, samples: 0)

    static func heard(atX x: Double, y: Double) -> [Int: SightingWindow] {
        var heard: [Int: SightingWindow] = [:]
        for (index, r) in receivers.enumerated() {
            let d = ((x - r.x) * (x - r.x) + (y - r.y) * (y - r.y) + 1).squareRoot()
            heard[index, default: SightingWindow()].add(model.txPower - 10 * model.exponent * log10(d))
        }
        return heard
    }

    @Test func choosesTheCandidateWithTheSmallestMeanAndLocatesTheHeldOutWalk() {
        var map: [TagReplayScene.CalibrationPoint] = []
        for x in stride(from: 1.0, through: 9, by: 1) {
            for y in stride(from: 1.0, through: 9, by: 1) {
                map.append(TagReplayScene.CalibrationPoint(x: x, y: y, z: 1, windows: [Self.heard(atX: x, y: y)]))
            }
        }
        let walk = (0..<20).map { step in
            let x = 2 + 0.3 * Double(step), y = 5.0
            return TagReplayScene.Window(end: 1000 + Double(step), length: 1, heard: Self.heard(atX: x, y: y), truthX: x, truthY: y)
        }
        let part = TagSettingsSelection.Part(
            name: "simulated", receivers: Self.receivers, models: Dictionary(uniqueKeysWithValues: TagRSSIStatistic.allCases.map { ($0, Self.model) }),
            folds: [TagSettingsSelection.Fold(map: map, tracks: [walk])]
        )
        let output = TagSettingsSelection().select([part])
        #expect(output.scores.count == TagSettingsSelection.candidates.count)
        let before = TagSettingsSelection.Candidate(statistic: .median, multilaterationWeight: 1, dropsWorstScanner: false, accelerationNoise: 0.25)
        #expect(output.scores.first?.candidate == before, "switchd's settings before the selection first")
        let best = output.scores.map(\.mean).min()
        #expect(output.scores.first { $0.candidate == output.chosen }?.mean == best)
        #expect((best ?? .infinity) < 1, "a walk heard without noise is placed within a metre: \(String(describing: best))")
    }
}
