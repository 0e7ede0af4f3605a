import Evaluation
import Foundation
import Harness
import Positioning
import Testing
@testable import floorscan_evaluate

/// The third selection's pieces: fold assignment by each grouping rule, the candidate list, the
/// criterion with its floor rule and 1 % tie rule, and `floorscan-evaluate select` on a fixture
/// suite folder.
@Suite struct SelectionTests {
    static func sample(user: Int = 0, phone: Int = 0, x: Double = 0) -> UJIIndoorLocSample {
        UJIIndoorLocSample(
            readings: [1: -50], longitude: x, latitude: 0, floor: 0, buildingID: 0, spaceID: 0, relativePosition: 0,
            userID: user, phoneID: phone, timestamp: 0)
    }

    // MARK: folds

    @Test func groupsGoToFoldsRoundRobinInOrderOfFirstAppearance() {
        let groups = ["b", "a", "b", "c", "d", "e", "f", "a", "g"]
        // b → group 0, a → 1, c → 2, d → 3, e → 4, f → 5 (fold 0), g → 6 (fold 1).
        #expect(CrossValidationFolds.folds(of: groups) == [0, 1, 0, 2, 3, 4, 0, 1, 1])
    }

    @Test func trajectoriesGroupWhenGiven() {
        let samples = (0..<4).map { Self.sample(user: $0, phone: $0) }
        let (grouping, groups) = CrossValidationFolds.groups(of: samples, trajectories: ["w2", "w2", "w1", "w2"])
        #expect(grouping == .trajectory)
        #expect(groups == [0, 0, 1, 0])
    }

    @Test func userAndPhonePairsGroupFromFiveOfThem() {
        // Five pairs though only three users and three phones.
        let pairs = [(1, 1), (1, 2), (2, 2), (2, 1), (3, 3), (1, 1)]
        let samples = pairs.map { Self.sample(user: $0.0, phone: $0.1) }
        let (grouping, groups) = CrossValidationFolds.groups(of: samples, trajectories: nil)
        #expect(grouping == .userAndPhone)
        #expect(groups == [0, 1, 2, 3, 4, 0])
    }

    @Test func fewerThanFivePairsGroupByConsecutiveFileBlocks() {
        let pairs = [(1, 1), (2, 2), (3, 3), (4, 4)]
        let samples = (0..<12).map { Self.sample(user: pairs[$0 % 4].0, phone: pairs[$0 % 4].1) }
        let (grouping, groups) = CrossValidationFolds.groups(of: samples, trajectories: nil)
        #expect(grouping == .fileBlocks)
        #expect(groups == [0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4])
        #expect(CrossValidationFolds.folds(of: groups) == groups)
    }

    // MARK: candidates

    @Test func oneStepCandidatesChangeOneSettingToEachGridNeighbour() {
        // The pre-registered baseline, whatever the default has become since.
        #expect(SelectionCandidate.standard.label == "standard")
        #expect(SelectionCandidate.standard.settings.neighbourDistanceRatio == 1.5)
        let candidates = SelectionCandidate.oneStep
        #expect(candidates.count == 13)
        #expect(candidates[0] == .standard)
        #expect(candidates[0].label == "standard")
        #expect(candidates.dropFirst().allSatisfy { $0.changes.count == 1 })
        #expect(candidates.dropFirst().map(\.label) == [
            "exponent 1.5", "exponent 2.5", "neighbours 21", "neighbours 41", "neighbour ratio 1.25", "neighbour ratio 2",
            "floor voters 3", "floor voters 7", "floor vote power 2", "floor vote power 4", "position power 1", "position power 3",
        ])
        // What the candidates build: the standard's settings apart from the one change.
        let ratio = candidates[5]
        #expect(ratio.settings.neighbourDistanceRatio == 1.25)
        #expect(ratio.settings.neighbours == 31)
        #expect(candidates[1].representation.exponent == 1.5)
    }

    @Test func pairwiseCombinesEveryTwoSettingsOnce() {
        let best = [
            SelectionCandidate.standard(with: .exponent, 2.5), SelectionCandidate.standard(with: .neighbours, 41),
            SelectionCandidate.standard(with: .positionPower, 3),
        ]
        let pairs = SelectionCandidate.pairwise(best)
        #expect(pairs.map(\.label) == [
            "exponent 2.5, neighbours 41", "exponent 2.5, position power 3", "neighbours 41, position power 3",
        ])
        #expect(pairs.allSatisfy { $0.changes.count == 2 })
    }

    // MARK: criterion

    typealias Figures = SelectionCriterion.Figures

    static let standardFigures = [Figures(mean: 4, floorHitRate: 0.95), Figures(mean: 2, floorHitRate: 1)]

    static func score(_ candidate: SelectionCandidate, means: (Double, Double), floors: (Double, Double) = (0.95, 1)) -> SelectionCriterion.Score {
        SelectionCriterion.score(
            candidate, [Figures(mean: means.0, floorHitRate: floors.0), Figures(mean: means.1, floorHitRate: floors.1)],
            standard: standardFigures)
    }

    @Test func theRatioIsTheGeometricMeanOfMeanOverStandardsMean() {
        let score = Self.score(.standard(with: .neighbours, 41), means: (2, 2.5))
        #expect(abs(score.ratio - (0.5 * 1.25).squareRoot()) < 1e-12)
        #expect(score.admissible)
        #expect(Self.score(.standard, means: (4, 2)).ratio == 1)
    }

    @Test func aFloorRateMoreThanTwoTenthsOfAPointBelowStandardsIsRefused() {
        #expect(Self.score(.standard(with: .neighbours, 41), means: (3, 2), floors: (0.948, 1)).admissible)
        #expect(!Self.score(.standard(with: .neighbours, 41), means: (3, 2), floors: (0.95, 0.9979)).admissible)
    }

    @Test func bestOneStepKeepsPerSettingTheBestAdmissibleValueThatBeatsStandard() {
        let scores = [
            Self.score(.standard, means: (4, 2)),
            Self.score(.standard(with: .neighbours, 21), means: (3.9, 2)),
            Self.score(.standard(with: .neighbours, 41), means: (3.8, 2)),
            Self.score(.standard(with: .exponent, 1.5), means: (2, 2), floors: (0.9, 1)),  // best ratio, fails the floor rule
            Self.score(.standard(with: .exponent, 2.5), means: (3.95, 2)),
            Self.score(.standard(with: .positionPower, 1), means: (4.1, 2)),  // worse than standard
        ]
        #expect(SelectionCriterion.bestOneStep(scores).map(\.label) == ["exponent 2.5", "neighbours 41"])
    }

    @Test func withinOnePercentOfTheBestFewerChangesWin() {
        let standard = Self.score(.standard, means: (4, 2))
        let one = Self.score(.standard(with: .neighbours, 41), means: (3.92, 1.96))  // ratio 0.98
        var pair = SelectionCandidate.standard(with: .neighbours, 41)
        pair[.exponent] = 2.5
        // 0.975: within 1 % of it the single change wins.
        #expect(SelectionCriterion.choose([standard, one, Self.score(pair, means: (3.9, 1.95))]).candidate == one.candidate)
        // 0.96: 0.98 is more than 1 % above it, so the pair wins.
        #expect(SelectionCriterion.choose([standard, one, Self.score(pair, means: (3.84, 1.92))]).candidate == pair)
        // 0.995 does not beat the standard by 1 %: the standard stays.
        let slight = Self.score(.standard(with: .neighbours, 21), means: (3.98, 1.99))
        #expect(SelectionCriterion.choose([standard, slight]).candidate == .standard)
        // The lowest ratio fails the floor rule, so it neither wins nor sets the 1 % band.
        let refused = Self.score(pair, means: (3, 1.5), floors: (0.94, 1))
        #expect(SelectionCriterion.choose([standard, one, refused]).candidate == one.candidate)
    }

    // MARK: the command

    @Test func selectCrossValidatesEachTrainFileAndNeverReadsItsTestFile() throws {
        let folder = try TemporaryFolder("selection-suite")
        defer { folder.remove() }
        // Ten rows along a corridor, two radios fading in opposite directions; one user and phone,
        // so five file blocks of two rows each. No test file: the command must not need one.
        let header = "WAP001,WAP002,LONGITUDE,LATITUDE,FLOOR,BUILDINGID,SPACEID,RELATIVEPOSITION,USERID,PHONEID,TIMESTAMP"
        let rows = (0..<10).map { i in "\(-40 - 4 * i).5,\(-76 + 4 * i),\(3 * i),0,0,0,0,0,0,0,0" }
        try FileManager.default.createDirectory(atPath: folder.path("TUT3"), withIntermediateDirectories: true)
        try ([header] + rows).joined(separator: "\n").write(toFile: folder.path("TUT3/train.csv"), atomically: true, encoding: .utf8)

        let datasets = try SelectCommand.parse(["--data", folder.path(""), "--only", "TUT3"]).load()
        let dataset = try #require(datasets.first)
        #expect(dataset.grouping == .fileBlocks)
        #expect(dataset.folds == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4])

        let outcome = SelectCommand.select(on: datasets) { _ in }
        #expect(outcome.oneStepCount == 13)
        #expect(outcome.scores[0].candidate == .standard)

        // `.standard`'s figures, fold by fold by hand.
        var errors: [Double] = []
        for fold in 0..<5 {
            let kept = dataset.samples.enumerated().filter { $0.offset / 2 != fold }.map(\.element.fingerprint)
            let locator = WiFiKNNLocator(records: kept, settings: SelectionCandidate.standard.settings)
            for sample in dataset.samples[(2 * fold)..<(2 * fold + 2)] {
                let fix = try #require(locator.locate(sample.readings))
                errors.append(abs(fix.estimate.x - sample.longitude))
            }
        }
        let standard = outcome.scores[0].figures[0]
        #expect(abs(standard.mean - errors.reduce(0, +) / 10) < 1e-9)
        #expect(standard.floorHitRate == 1)

        let table = SelectionTable(datasets: datasets, outcome: outcome).markdown
        #expect(table.hasPrefix("Folds: TUT3 10 rows by file blocks (5 groups)"))
        #expect(table.contains("| standard | \(SuiteTable.fixed(standard.mean, digits: 3)) / 100.00 | 1.0000 | kept |"))
        #expect(table.contains("Chosen: \(outcome.chosen.candidate.label) "))
    }

    @Test func trajectoriesThatDoNotMatchTheRowsAreRefused() {
        #expect(throws: UJIIndoorLocEvaluationError.self) {
            try SelectionDataset(name: "WiFine", samples: [Self.sample(), Self.sample()], trajectories: ["w1"])
        }
    }

    @Test func aSuiteFolderWithoutATrainFileStopsTheRunNamingIt() throws {
        let command = try SelectCommand.parse(["--data", "/nonexistent-suite", "--only", "LIB1"])
        #expect { try command.load() } throws: { "\($0)".contains("/nonexistent-suite/LIB1: no train.csv") }
    }
}
