import Foundation
import Harness
import Testing
@testable import floorscan_evaluate

/// Fixed-receiver datasets replayed through a real switchd as fixed scanners' sightings
/// (`floorscan-evaluate tags`), shortened for a debug build: 3 of the 9 tracks and the first 5
/// windows of each static point. `scripts/evaluate` runs them whole.
@Suite("Tag tracking replayed through switchd (RealData)", .serialized)
struct TagReplayRealDataTests {
    @Test(.enabled(if: PublicData.has("position-annotated-ble"), Comment(rawValue: PublicData.missing("position-annotated-ble"))))
    func positionAnnotated() async throws {
        let output = try await TagReplayEvaluation.run(
            .positionAnnotated, folder: PublicData.path("position-annotated-ble"), staticWindowsPerPoint: 5, tracks: 3
        )
        let tracks = try #require(output.parts["tracks"])
        let staticPoints = try #require(output.parts["static-train1-test2"])
        for part in [tracks, staticPoints] {
            #expect(part.withCalibration.located == part.windows, "every window heard by some receiver is located")
            #expect(part.withCalibration.receiveOffsets.count == 12)
        }
        print("TagReplay position-annotated: \(try summary(output))")
        let trackErrors = try #require(tracks.withCalibration.errors)
        let staticErrors = try #require(staticPoints.withCalibration.errors)
        // Regression bounds over what these shortened replays measured, not the targets.
        #expect(trackErrors.mean < TagReplayBounds.tracks)
        #expect(staticErrors.mean < TagReplayBounds.staticPoints)
        // The receivers differ by up to ±4 dB here. Calibrating them helps the static points; on
        // the walks it has not since switchd reads each window's strongest reading (shortened:
        // 1.28 m with, 1.21 without; whole: 1.38 and 1.37; corrected to declared powers,
        // shortened 1.25 and 1.23, whole 1.38 and 1.39; with 0.05 m/s², shortened 1.18 and 1.16,
        // whole 1.328 and 1.329), as docs/tags.md reports.
        #expect(staticErrors.mean < (try #require(staticPoints.withoutCalibration.errors)).mean, "calibrating the receivers helps the static points")
    }

    @Test(.enabled(if: PublicData.has("fingerprint-suite/BLE_calib2021"), Comment(rawValue: PublicData.missing("fingerprint-suite/BLE_calib2021"))))
    func bleCalib2021() async throws {
        let output = try await TagReplayEvaluation.run(.bleCalib2021, folder: PublicData.path("fingerprint-suite/BLE_calib2021"))
        let run = try #require(output.parts["test-run"])
        #expect(run.windows == 719)
        #expect(run.withCalibration.receiveOffsets.count == 6)
        print("TagReplay BLE_calib2021: \(try summary(output))")
        let calibrated = try #require(run.withCalibration.errors)
        #expect(calibrated.mean < TagReplayBounds.bleCalib2021)
        // Calibration neither measurably helps nor hurts here: 0.00003 m better with 0.1 m/s²,
        // 0.0007 m worse with 0.05 m/s² (1.28806 m without, 1.28876 with). Not worse by a centimetre.
        let uncalibrated = try #require(run.withoutCalibration.errors)
        #expect(calibrated.mean < uncalibrated.mean + 0.01, "calibrating the anchors does not make it measurably worse")
    }

    private func summary(_ output: TagReplayEvaluation.Output) throws -> String {
        String(decoding: try JSONEncoder().encode(output), as: UTF8.self)
    }
}

/// The mean errors (with calibration) the replays stay under, metres: what they measured with
/// fingerprints fused (1.60, 2.69 and 1.25 m; once per closed window with the cross-validated
/// k = 3 and 0.25 m/s², 1.55, 2.53 and 1.29 m; with each window's strongest reading and
/// 0.1 m/s², 1.28, 2.41 and 1.30 m, corrected to declared powers 1.25, 2.36 and 1.30 m; with
/// the fourth selection's 0.05 m/s², 1.18, 2.36 and 1.29 m;
/// multilateration alone measured 2.01, 3.31 and 1.70), with a
/// margin. The targets (1.3, 2.0, 1.1 m) are not met; docs/tags.md says so.
enum TagReplayBounds {
    static let tracks = 1.5
    static let staticPoints = 2.7
    static let bleCalib2021 = 1.45
}
