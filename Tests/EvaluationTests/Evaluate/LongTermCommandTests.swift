import Foundation
import Harness
import Testing
@testable import floorscan_evaluate

/// `floorscan-evaluate longterm` over a fixture folder in uji-library-longterm's layout: one train
/// month, test months found by name in month order, other files ignored.
@Suite final class LongTermCommandTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("longterm") }

    deinit { folder.remove() }

    static let header = "WAP001,WAP002,LONGITUDE,LATITUDE,FLOOR,BUILDINGID,SPACEID,RELATIVEPOSITION,USERID,PHONEID,TIMESTAMP"

    func write(_ name: String, _ rows: [String]) {
        #expect(FileManager.default.createFile(atPath: folder.path(name), contents: Data(([Self.header] + rows).joined(separator: "\n").utf8)))
    }

    /// Survey points at x = 0 (hears WAP001) and x = 10 (hears WAP002), three scans each.
    func writeSurvey() {
        write("month01_train.csv", (0..<3).flatMap { _ in ["-40,100,0,0,3,0,0,0,0,1,0", "100,-40,10,0,3,0,0,0,0,1,0"] })
    }

    @Test func everyTestMonthInOrderAgainstTheFirstMonthsSurvey() throws {
        writeSurvey()
        write("month10_test.csv", ["100,-41,10,1,3,0,0,0,0,1,0"])
        write("month02_test.csv.gz", ["-41,100,0,2,3,0,0,0,0,1,0"])  // named .gz, read by its bytes
        write("month01_test.csv", ["-41,100,0,0,3,0,0,0,0,1,0", "100,-41,10,0,3,0,0,0,0,1,0"])
        write("notes.csv", ["-41,100,0,0,3,0,0,0,0,1,0"])
        let rows = try LongTermCommand.parse(["--data", folder.path("")]).evaluate()
        #expect(rows.map(\.month) == [1, 2, 10])
        #expect(rows.map(\.standard.metrics.queries) == [2, 1, 1])
        #expect(rows.map(\.reference.details.method) == ["plain-knn", "plain-knn", "plain-knn"])
        // The nearest surveyed point is 0, 2 and 1 m away; a scan hearing one radio is nearest to
        // the three scans of the point that heard it, so the plain kNN lands on that point.
        #expect(rows.map(\.nearestSurveyedMean) == [0, 2, 1])
        #expect(rows.map(\.reference.metrics.mean) == [0, 2, 1])
        let lines = LongTermTable(rows: rows).markdown.split(separator: "\n")
        #expect(lines.count == 2 + 3 + 1)
        #expect(lines[2].hasPrefix("| 01 | 2 | "))
        #expect(lines[4].hasPrefix("| 10 | 1 | "))
        #expect(lines[5].hasPrefix("Default settings chosen by the survey"))
    }

    @Test func aFolderWithoutTrainOrTestFilesIsRefusedByName() throws {
        write("month01_test.csv", ["-41,100,0,0,3,0,0,0,0,1,0"])
        #expect(throws: UJIIndoorLocEvaluationError.self) { try LongTermCommand.parse(["--data", folder.path("")]).evaluate() }
        try FileManager.default.removeItem(atPath: folder.path("month01_test.csv"))
        writeSurvey()
        let error = try #require(throws: UJIIndoorLocEvaluationError.self) { try LongTermCommand.parse(["--data", folder.path("")]).evaluate() }
        #expect(error.description.contains("monthMM_test.csv"))
        #expect(LongTermCommand.month(of: "month07_test.csv.gz", part: "test") == 7)
        #expect(LongTermCommand.month(of: "month_test.csv", part: "test") == nil)
        #expect(LongTermCommand.month(of: "month07_train.csv", part: "test") == nil)
    }
}
