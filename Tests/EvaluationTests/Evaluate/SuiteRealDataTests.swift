import Harness
import Testing
@testable import floorscan_evaluate

/// The suite's small datasets end to end through `floorscan-evaluate suite`, when the public data
/// is on this machine (`../shared/data` or `$FLOORSCAN_DATA`): every test row is positioned or
/// counted unanswered. No accuracy is asserted here; `scripts/evaluate` prints the figures.
@Suite struct SuiteRealDataTests {
    /// Folder name and test rows, as each README.txt states them, in the suite's order.
    static let small = [("LIB1", 3120), ("UJIB1", 900), ("BLE_calib2021", 719)]

    @Test(.enabled(
        if: PublicData.has("fingerprint-suite/UJIB1", "fingerprint-suite/BLE_calib2021", "fingerprint-suite/LIB1"),
        Comment(rawValue: PublicData.missing("fingerprint-suite/UJIB1", "fingerprint-suite/BLE_calib2021", "fingerprint-suite/LIB1"))
    ))
    func theSmallDatasetsRunEndToEnd() throws {
        let rows = try SuiteCommand.parse(["--only", "UJIB1", "--only", "BLE_calib2021", "--only", "LIB1"]).evaluate()
        for (row, (name, testRows)) in zip(rows, Self.small) {
            #expect(row.dataset.name == name)
            let report = try #require(row.report, "\(name) not found")
            #expect(report.metrics.queries == testRows)
            #expect(report.metrics.unanswered < testRows)
            #expect(report.metrics.mean.isFinite)
        }
    }
}
