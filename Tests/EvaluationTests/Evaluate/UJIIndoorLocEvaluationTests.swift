import Evaluation
import Foundation
import Harness
import Testing
@testable import floorscan_evaluate

@Suite final class UJIIndoorLocEvaluationTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("ujiindoorloc") }

    deinit { folder.remove() }

    static let header = (1...3).map { "WAP00\($0)" }.joined(separator: ",")
        + ",LONGITUDE,LATITUDE,FLOOR,BUILDINGID,SPACEID,RELATIVEPOSITION,USERID,PHONEID,TIMESTAMP"

    /// A UJI-format CSV: each row is (RSSI of WAP001…WAP003, 100 = not heard), x, y, floor, building.
    func csv(_ name: String, _ rows: [([Int], Double, Double, Int, Int)]) -> String {
        let lines = rows.map { rssi, x, y, floor, building in
            (rssi.map(String.init) + ["\(x)", "\(y)", "\(floor)", "\(building)", "0", "0", "0", "0", "1380000000"])
                .joined(separator: ",")
        }
        let path = folder.path(name)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(([Self.header] + lines).joined(separator: "\n").utf8)))
        return path
    }

    var training: String {
        csv("train.csv", [
            ([-40, 100, 100], 0, 0, 0, 0),
            ([100, -40, 100], 10, 0, 0, 0),
            ([100, 100, -40], 100, 0, 1, 1),
        ])
    }

    /// Each test row is nearest to one training row: 1 m off, 3 m off, and 0 m off but on the wrong floor.
    var testing: String {
        csv("test.csv", [
            ([-42, 100, 100], 1, 0, 0, 0),
            ([100, 100, -41], 100, 3, 1, 1),
            ([100, -40, 100], 10, 0, 1, 0),
        ])
    }

    func report(_ arguments: [String]) throws -> UJIIndoorLocReport {
        try UJIIndoorLocEvaluation.parse(["--train", training, "--test", testing] + arguments).evaluate()
    }

    @Test(arguments: [["--method", "wifi-knn", "--k", "1", "--floor-voters", "1", "--building-voters", "1"], ["--method", "best-match-vote"]])
    func measuresErrorsAndHitRates(arguments: [String]) throws {
        let report = try report(arguments)
        #expect(report.details.method == arguments[1])
        #expect(report.metrics.queries == 3)
        #expect(abs(report.metrics.mean - 4.0 / 3) < 1e-9)
        #expect(report.metrics.median == 1)
        #expect(abs(report.metrics.p95 - 2.8) < 1e-9)
        #expect(report.metrics.buildingHitRate == 1)
        #expect(abs(report.metrics.floorHitRate - 2.0 / 3) < 1e-9)
        #expect(report.details.fingerprints == 3)
        #expect(report.details.indexBytes > 0)
        #expect(report.details.msPerQuery >= 0)
    }

    @Test func decimalRSSILocalCoordinatesAndAnyNumberingRun() throws {
        // BLE-style averaged readings, a local frame in metres, floors 3 and 5 of building 7, and a
        // test row that hears nothing: it is answered by no one and counts as a floor and building miss.
        let train = folder.path("decimal-train.csv"), test = folder.path("decimal-test.csv")
        let trainRows = ["-40.25,100,-90.5,1.5,2.5,3,7,0,0,0,0,0", "100,-41.75,100,11.5,2.5,5,7,0,0,0,0,0", "100,100,100,20,20,5,7,0,0,0,0,0"]
        let testRows = ["-40.5,100,-91,1.5,3.5,3,7,0,0,0,0,0", "100,100,100,11.5,2.5,5,7,0,0,0,0,0"]
        #expect(FileManager.default.createFile(atPath: train, contents: Data(([Self.header] + trainRows).joined(separator: "\n").utf8)))
        #expect(FileManager.default.createFile(atPath: test, contents: Data(([Self.header] + testRows).joined(separator: "\n").utf8)))
        let report = try UJIIndoorLocEvaluation.parse(["--train", train, "--test", test, "--k", "1", "--floor-voters", "1", "--building-voters", "1"]).evaluate()
        #expect(report.metrics.queries == 2)
        #expect(report.metrics.unanswered == 1)
        #expect(abs(report.metrics.mean - 1) < 1e-9)
        #expect(report.metrics.floorHitRate == 0.5)
        #expect(report.metrics.buildingHitRate == 0.5)
    }

    @Test func theDefaultIsTheKNNCascadeWithItsSettings() throws {
        let command = try UJIIndoorLocEvaluation.parse(["--train", training, "--test", testing])
        #expect(command.method == .wifiKNN)
        let report = try command.evaluate()
        #expect(report.details.settings?.k == command.k)
        #expect(report.details.settings?.distance == "sorensen")
    }

    @Test func theTrainingSurveyChoosesItsSettingsUnlessTheyAreFixed() throws {
        // Six points along a corridor, three samples each: the rule cuts whole points into folds.
        let rows = (0..<18).map { row -> ([Int], Double, Double, Int, Int) in
            let x = Double(row / 3) * 5
            return ([-40 - Int(x) - row % 3, -70 + Int(x) - row % 3, 100], x, 0, 0, 0)
        }
        let survey = csv("corridor.csv", rows)
        let chosen = try UJIIndoorLocEvaluation.parse(["--train", survey, "--test", testing]).evaluate()
        #expect(chosen.details.settings?.chosenBy == "survey cross-validation (locations round-robin)")
        let fixed = try UJIIndoorLocEvaluation.parse(["--train", survey, "--test", testing, "--fixed-settings"]).evaluate()
        #expect(fixed.details.settings?.chosenBy == "given")
        #expect(fixed.details.settings?.k == 31)
        #expect(fixed.details.settings?.positionFrom == "samples")
    }

    @Test func leaveOneUserOutTestsEachUserAgainstTheOthers() throws {
        // Users 1 and 2 surveyed the same two points; each held-out sample is nearest to the
        // other user's sample of its own point, 0 m off, so every answer is exact and covered.
        let header = Self.header
        let rows = [
            "-40,100,100,0,0,0,0,0,0,1,1,1", "100,-40,100,10,0,0,0,0,0,1,1,1",
            "-42,100,100,0,0,0,0,0,0,2,2,1", "100,-43,100,10,0,0,0,0,0,2,2,1",
        ]
        let path = folder.path("users.csv")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(([header] + rows).joined(separator: "\n").utf8)))
        let report = try UJIIndoorLocEvaluation.parse(["--train", path, "--leave-one-user-out", "--k", "1"]).evaluate()
        #expect(report.metrics.queries == 4)
        #expect(report.metrics.mean < 1e-9)
        #expect(report.metrics.floorHitRate == 1)
        #expect(report.details.covered?.queries == 4)
        #expect(report.details.testedOn.contains("leave-one-user-out"))
    }

    @Test func leaveOnePhoneOutHoldsOutEveryUserOfThePhone() throws {
        // Users 1 and 2 share phone 1 and surveyed points (0, 0) and (0, 10); user 3 (phone 2)
        // surveyed (0, 0) only. Holding out phone 1 leaves user 3 alone: the (0, 10) samples hear
        // no radio user 3 heard and are neither answered nor covered; the (0, 0) ones are exact.
        let rows = [
            "-40,100,100,0,0,0,0,0,0,1,1,1", "100,-40,100,0,10,0,0,0,0,1,1,1",
            "-42,100,100,0,0,0,0,0,0,2,1,1", "100,-43,100,0,10,0,0,0,0,2,1,1",
            "-41,100,100,0,0,0,0,0,0,3,2,1",
        ]
        let path = folder.path("phones.csv")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(([Self.header] + rows).joined(separator: "\n").utf8)))
        let report = try UJIIndoorLocEvaluation.parse(["--train", path, "--leave-one-phone-out", "--k", "1"]).evaluate()
        #expect(report.metrics.queries == 5)
        #expect(report.metrics.unanswered == 2)
        #expect(report.metrics.mean < 1e-9)
        #expect(report.details.covered?.queries == 3)
        #expect(report.details.testedOn.contains("leave-one-phone-out"))
        // Each phone apart: phone 1's four samples (two unanswered, two covered), phone 2's one.
        let groups = try #require(report.details.heldOutGroups)
        #expect(groups.map(\.id) == [1, 2])
        #expect(groups.map(\.all.queries) == [4, 1])
        #expect(groups.map(\.all.unanswered) == [2, 0])
        #expect(groups.map(\.covered.queries) == [2, 1])
        // A group with no answered scan has no mean: the JSON says "nan" instead of failing the run
        // (SODIndoorLoc's phone 3 alone surveyed its building).
        var unanswered = report
        unanswered.details.heldOutGroups?[0].all.mean = .nan
        #expect(try UJIIndoorLocEvaluation.json(unanswered).contains(#""mean":"nan""#))
    }

    @Test func plainKNNIsTheReadmesReference() throws {
        // Three nearest of four samples by Euclidean dBm (not heard = -105): the scan hears only
        // WAP001 at -50, so the samples hearing it loudest are nearest; the fourth (floor 1, far)
        // is left out, and floor 0 wins the vote 2 to 1 over the nearest sample's floor 1.
        let train = csv("plain-train.csv", [
            ([-50, 100, 100], 0, 0, 1, 0),
            ([-52, 100, 100], 2, 0, 0, 0),
            ([-55, 100, 100], 4, 0, 0, 0),
            ([100, -40, 100], 60, 0, 1, 0),
        ])
        let test = csv("plain-test.csv", [([-50, 100, 100], 1, 0, 0, 0)])
        let report = try UJIIndoorLocEvaluation.parse(["--train", train, "--test", test, "--method", "plain-knn"]).evaluate()
        #expect(report.details.method == "plain-knn")
        #expect(report.metrics.queries == 1)
        #expect(abs(report.metrics.mean - 1) < 1e-12)  // (0 + 2 + 4) / 3 = 2, truth 1
        #expect(report.metrics.floorHitRate == 1)
    }

    @Test func coveredSamplesHaveATrainingLocationOnTheirFloorNearby() throws {
        let samples = try UJIIndoorLoc.parse(Array(([Self.header] + [
            "-40,100,100,0,0,0,0,0,0,1,1,1", "-40,100,100,4,3,0,0,0,0,2,2,1",
            "-40,100,100,4,3.1,0,0,0,0,2,2,1", "-40,100,100,0,0,1,0,0,0,2,2,1",
        ]).joined(separator: "\n").utf8))
        let covered = UJIIndoorLocEvaluation.covered(Array(samples[1...]), by: [samples[0]])
        // 5 m away on the same floor is covered; 5.1 m away, or another floor, is not.
        #expect(covered.map(\.latitude) == [3])
    }

    @Test func badArgumentsAreRefused() {
        #expect(throws: (any Error).self) { try UJIIndoorLocEvaluation.parse(["--train", "a", "--test", "b", "--k", "0"]) }
        #expect(throws: (any Error).self) { try UJIIndoorLocEvaluation.parse(["--train", "a", "--test", "b", "--method", "magic"]) }
        #expect(throws: (any Error).self) { try UJIIndoorLocEvaluation.parse(["--train", "a"]) }
        #expect(throws: (any Error).self) { try UJIIndoorLocEvaluation.parse(["--train", "a", "--test", "b", "--leave-one-user-out"]) }
        #expect(throws: (any Error).self) {
            try UJIIndoorLocEvaluation.parse(["--train", "a", "--leave-one-user-out", "--leave-one-phone-out"])
        }
        #expect(throws: (any Error).self) { try UJIIndoorLocEvaluation.parse(["--train", "a", "--test", "b", "--neighbour-ratio", "0.5"]) }
    }

    @Test func aMissingFileIsNamed() throws {
        let command = try UJIIndoorLocEvaluation.parse(["--train", folder.path("absent.csv"), "--test", testing])
        #expect { try command.evaluate() } throws: { "\($0)".contains("absent.csv") }
    }

    @Test func aMalformedFileNamesLineAndColumn() throws {
        let path = folder.path("bad.csv")
        #expect(FileManager.default.createFile(atPath: path, contents: Data((Self.header + "\n-40,100,oops,0,0,0,0,0,0,0,0,0\n").utf8)))
        let command = try UJIIndoorLocEvaluation.parse(["--train", path, "--test", testing])
        #expect { try command.evaluate() } throws: { error in
            "\(error)".contains("bad.csv") && "\(error)".contains("line 2, column 3 (WAP003)")
        }
    }

    @Test func aMalformedDecimalNamesFileLineAndColumn() throws {
        let path = folder.path("bad-decimal.csv")
        let rows = ["-40.5,100,-60,0,0,0,0,0,0,0,0,0", "-40.5,-5.5.5,-60,0,0,0,0,0,0,0,0,0"]
        #expect(FileManager.default.createFile(atPath: path, contents: Data(([Self.header] + rows).joined(separator: "\n").utf8)))
        let command = try UJIIndoorLocEvaluation.parse(["--train", training, "--test", path])
        #expect { try command.evaluate() } throws: { error in
            "\(error)".contains("bad-decimal.csv") && "\(error)".contains("line 3, column 2 (WAP002)")
                && "\(error)".contains("\"-5.5.5\"")
        }
    }
}
