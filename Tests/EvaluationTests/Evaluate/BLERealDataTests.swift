import Foundation
import Harness
import ScanContract
import Testing
@testable import floorscan_evaluate

@Suite("BLE evaluation on public data (RealData)")
struct BLERealDataTests {
    @Test(.enabled(if: PublicData.has("rpi-ble-wifi-rssi-spachos"), Comment(rawValue: PublicData.missing("rpi-ble-wifi-rssi-spachos"))))
    func spachosScenario3() throws {
        let folder = PublicData.path("rpi-ble-wifi-rssi-spachos")
        let data = try SpachosEvaluation.load(folder, scenario: 3)
        #expect(data.fingerprints.count == 40 && data.tests.count == 16 && data.pathLoss.count == 18)
        let output = try SpachosEvaluation(scenario: 3).run(data, methods: BLEMethodName.allCases)
        let fingerprint = try #require(output.details.methods["fingerprint"])
        let trilateration = try #require(output.details.methods["trilateration"])
        let fused = try #require(output.details.methods["fused"])
        #expect(fingerprint.queries == 16)
        // Reference figures (BASELINES.md): trilateration 1.83 m, kNN 1.67 m.
        #expect(fingerprint.mean < 1.9)
        #expect(trilateration.mean < 2.0)
        #expect(fused.mean < 1.9)
    }

    @Test(.enabled(if: PublicData.has("position-annotated-ble"), Comment(rawValue: PublicData.missing("position-annotated-ble"))))
    func positionAnnotatedTargets() throws {
        let folder = PublicData.path("position-annotated-ble")
        let data = try AnnotatedBLEEvaluation.load(folder)
        #expect(data.receivers.count == 12 && data.points.count == 126 && data.tracks.count == 9)
        // A debug build is slow: fewer validation windows and two of the candidate maps (the
        // release command searches the whole grid; both of these are in it).
        var evaluation = AnnotatedBLEEvaluation(trackWindow: 2, staticWindow: 5)
        evaluation.validationWindowsPerPoint = 4
        evaluation.candidates = BLEFingerprintCandidate.grid.filter { $0.lengthScale != nil && $0.k == 9 }
        let output = try evaluation.run(data, methods: BLEMethodName.allCases)
        let tracks = try #require(output.details.parts["tracks"]?.methods)
        #expect(try #require(tracks["trilateration"]).mean <= 2.5)
        #expect(try #require(tracks["fused"]).mean <= 2.0)
        #expect(try #require(tracks["filtered"]).mean <= 2.0)
        let oneToTwo = try #require(output.details.parts["static-train1-test2"]?.methods)
        #expect(try #require(oneToTwo["fingerprint"]).mean <= 2.2)
    }
}
