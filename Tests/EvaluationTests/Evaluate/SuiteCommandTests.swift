import Foundation
import Harness
import Testing
@testable import floorscan_evaluate

/// `floorscan-evaluate suite` over a fixture suite folder built here: one dataset present (TUT3's
/// name, tiny decimal-RSSI files), one absent.
@Suite final class SuiteCommandTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("fingerprint-suite") }

    deinit { folder.remove() }

    static let header = "WAP001,WAP002,LONGITUDE,LATITUDE,FLOOR,BUILDINGID,SPACEID,RELATIVEPOSITION,USERID,PHONEID,TIMESTAMP"

    func write(_ name: String, _ rows: [String]) throws {
        let path = folder.path(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(([Self.header] + rows).joined(separator: "\n").utf8)))
    }

    @Test func printsARowPerDatasetAndTheGeometricMeanOverTheReference() throws {
        try write("TUT3/train.csv", ["-40.5,100,0,0,0,0,0,0,0,0,0", "100,-40.5,30,0,0,0,0,0,0,0,0"])
        try write("TUT3/test.csv", ["-41,100,0,3,0,0,0,0,0,0,0", "100,100,5,5,0,0,0,0,0,0,0"])
        let command = try SuiteCommand.parse(["--data", folder.path(""), "--only", "TUT3", "--only", "UJIB1", "--reports", folder.path("reports")])
        let rows = try command.evaluate()
        #expect(rows.map(\.dataset.name) == ["TUT3", "UJIB1"])
        let report = try #require(rows[0].report)
        #expect(report.metrics.queries == 2)
        #expect(report.metrics.unanswered == 1)
        #expect(rows[1].report == nil)
        #expect(FileManager.default.fileExists(atPath: folder.path("reports/TUT3.json")))

        let table = SuiteTable(rows: rows)
        let ratio = try #require(table.geometricMeanRatio)
        #expect(abs(ratio - report.metrics.mean / 9.07) < 1e-12)
        let lines = table.markdown.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[2].hasPrefix("| TUT3 | 2 (1) | "))
        #expect(lines[2].contains("| 9.07 / 90.26 |"))
        #expect(lines[2].contains("DELLoc-RT 8.19 m / 94.02 %"))
        #expect(lines[3].hasPrefix("| UJIB1 | skipped: not found |"))
        #expect(lines[4].contains("| \(SuiteTable.fixed(ratio)) |"))
    }

    @Test func theGeometricMeanOfTwoRatiosIsTheirRootProduct() throws {
        // Two identical fixture datasets named for references 9.07 m (TUT3) and 6.02 m (TUT4); the
        // test file is found under the gzipped name too (the reader goes by magic bytes, not name).
        for name in ["TUT3", "TUT4"] {
            try write("\(name)/train.csv", ["-40.5,100,0,0,0,0,0,0,0,0,0", "100,-40.5,30,0,0,0,0,0,0,0,0"])
            try write("\(name)/test.csv.gz", ["-41,100,0,3,0,0,0,0,0,0,0"])
        }
        let rows = try SuiteCommand.parse(["--data", folder.path(""), "--only", "TUT3", "--only", "TUT4"]).evaluate()
        let mean = try #require(rows.first?.report?.metrics.mean)
        let ratio = try #require(SuiteTable(rows: rows).geometricMeanRatio)
        #expect(abs(ratio - (mean / 9.07 * mean / 6.02).squareRoot()) < 1e-12)
    }

    @Test func aMalformedDatasetStopsTheRunNamingFileLineAndColumn() throws {
        try write("UJIB1/train.csv", ["-40.5,100,0,0,0,0,0,0,0,0,0"])
        try write("UJIB1/test.csv", ["-41,-4x,0,3,0,0,0,0,0,0,0"])
        let command = try SuiteCommand.parse(["--data", folder.path(""), "--only", "UJIB1"])
        #expect { try command.evaluate() } throws: { error in
            "\(error)".contains("UJIB1/test.csv") && "\(error)".contains("line 2, column 2 (WAP002)")
        }
    }

    @Test func anUnknownDatasetIsRefused() {
        #expect(throws: (any Error).self) { try SuiteCommand.parse(["--only", "TUT9"]) }
    }
}
