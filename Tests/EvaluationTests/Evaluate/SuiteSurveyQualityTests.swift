import Foundation
import Harness
import Testing
@testable import floorscan_evaluate

/// `floorscan-evaluate suite --survey-quality` over a fixture suite folder built here.
@Suite final class SuiteSurveyQualityTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("survey-quality") }

    deinit { folder.remove() }

    func write(_ name: String, _ rows: [String]) throws {
        let path = folder.path(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(([SuiteCommandTests.header] + rows).joined(separator: "\n").utf8)))
    }

    @Test func pairsEachTestQuerysRealErrorWithItsNearestLocationsExpectedError() throws {
        // Two locations 30 m apart, two scans each, each hearing one access point loud and the
        // other faint: left out, each is found at the other, so both expect 30 m.
        try write("TUT3/train.csv", [
            "-40,-80,0,0,0,0,0,0,0,0,0", "-41,-80,0,0,0,0,0,0,0,0,0",
            "-80,-40,30,0,0,0,0,0,0,0,0", "-80,-41,30,0,0,0,0,0,0,0,0",
        ])
        // Both queries sound like the location at (0, 0), and are placed there: 3 m and 40 m off.
        // The third hears nothing and is not rated.
        try write("TUT3/test.csv", ["-41,-79,0,3,0,0,0,0,0,0,0", "-41,-79,0,40,0,0,0,0,0,0,0", "100,100,5,5,0,0,0,0,0,0,0"])
        let command = try SuiteCommand.parse(["--data", folder.path(""), "--only", "TUT3", "--only", "UJIB1", "--survey-quality"])
        let rows = try command.surveyQualityRows()
        #expect(rows.map(\.name) == ["TUT3", "UJIB1"])
        let trial = try #require(rows[0].trial)
        #expect(trial.locations == 2 && trial.folds == 2 && trial.unrated == 1)
        #expect(trial.pairs.map(\.expected) == [30, 30])
        #expect(trial.pairs.map(\.real) == [3, 40])
        #expect(trial.withinExpected == 0.5)
        #expect(rows[1].trial == nil)

        let lines = SurveyQualityTable(rows: rows).markdown.split(separator: "\n")
        #expect(lines.count == 4)
        // The expected errors are all alike, so there is no correlation to give.
        #expect(lines[2].hasPrefix("| TUT3 | 2 (2) | 2 (1) | nan | nan | 50.0 % | 30.00 | 21.50 | "))
        #expect(lines[3].hasPrefix("| UJIB1 | skipped: not found |"))
    }

    @Test func fewerThanTwoFoldsAreRefused() {
        #expect(throws: (any Error).self) { try SuiteCommand.parse(["--survey-quality", "--folds", "1"]) }
    }
}
