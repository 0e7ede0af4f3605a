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
        let third = TagSettingsSelection.Round.third.candidates
        let output = TagSettingsSelection(candidates: third).select([part])
        #expect(output.scores.count == third.count)
        let before = TagSettingsSelection.Candidate(statistic: .median, multilaterationWeight: 1, dropsWorstScanner: false, accelerationNoise: 0.25)
        #expect(output.scores.first?.candidate == before, "switchd's settings before the selection first")
        let best = output.scores.map(\.mean).min()
        #expect(output.scores.first { $0.candidate == output.chosen }?.mean == best)
        #expect((best ?? .infinity) < 1, "a walk heard without noise is placed within a metre: \(String(describing: best))")
    }

    @Test func theFourthSelectionTriesTheNoiseAloneWithTheThirdsChoiceFirst() {
        let candidates = TagSettingsSelection.Round.fourth.candidates
        #expect(candidates.map(\.accelerationNoise) == [0.1, 0.05, 0.25, 0.5, 1])
        #expect(Set(candidates.map(\.locating)) == [
            TagSettingsSelection.Candidate(statistic: .strongest, multilaterationWeight: 1, dropsWorstScanner: false, accelerationNoise: 0),
        ])
        #expect(TagSettingsSelection().candidates == candidates, "the fourth is the default")
    }

    @Test func theSimulatedWalksTurnAndGoBack() throws {
        let part = try SimulatedTagReplay.selectionPart(seeds: [101])
        let track = try #require(part.folds.first?.tracks.first)
        #expect(part.folds.count == 1 && part.folds[0].map.count == 4, "the four beacons are the map")
        // Headings between windows 10 s apart: east, north, west, south, and back again.
        let headings = stride(from: 0, to: track.count - 5, by: 5).map { i -> String in
            let dx = track[i + 5].truthX - track[i].truthX, dy = track[i + 5].truthY - track[i].truthY
            return abs(dx) > abs(dy) ? (dx > 0 ? "E" : "W") : (dy > 0 ? "N" : "S")
        }
        let turns = zip(headings, headings.dropFirst()).filter { $0 != $1 }.count
        #expect(turns >= 6, "three corners each way and a reversal: \(headings.joined())")
        #expect(headings.first == "E" && headings.last == "W")
    }
}
