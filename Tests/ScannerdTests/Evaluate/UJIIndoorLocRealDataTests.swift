import Foundation
import Testing
@testable import scannerd

/// The default method on the real benchmark, when the public data is on this machine
/// (`../shared/data` beside the repository, or `$FLOORSCAN_DATA`). Only accuracy is asserted:
/// timing in a debug build says nothing.
@Suite struct UJIIndoorLocRealDataTests {
    static var dataFolder: String {
        if let configured = ProcessInfo.processInfo.environment["FLOORSCAN_DATA"] { return configured }
        // #filePath is <root>/Tests/ScannerdTests/Evaluate/<file>.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared/data").path
    }

    @Test func theDefaultMethodMeetsTheAccuracyTargets() throws {
        let folder = Self.dataFolder + "/ujiindoorloc"
        let train = folder + "/trainingData.csv.gz", test = folder + "/validationData.csv.gz"
        guard FileManager.default.fileExists(atPath: train), FileManager.default.fileExists(atPath: test) else {
            print("SKIP: UJIIndoorLoc not found in \(folder); set FLOORSCAN_DATA to the folder holding ujiindoorloc/")
            return
        }
        let report = try UJIIndoorLocEvaluation.parse(["--train", train, "--test", test]).evaluate()
        #expect(report.metrics.queries == 1111)
        #expect(report.metrics.buildingHitRate == 1)
        #expect(report.metrics.floorHitRate >= 0.96)
        #expect(report.metrics.mean <= 6.0)
        #expect(report.metrics.p95 <= 19)
    }
}
