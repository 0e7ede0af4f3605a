import Evaluation
import Foundation
import Positioning

/// The BLE methods of one evaluation, fitted on its training data: trilateration, fingerprint,
/// their fusion, and (for sequences) the Kalman-filtered fusion. Accuracy radii are rescaled by
/// factors measured on the training data, so fusion weighs each method by its real error.
struct BLEPipeline {
    var trilateration: BLETrilateration
    var anchors: [Emitter: RangingAnchor]
    var fingerprint: BLEFingerprint
    /// Reported accuracy × scale ≈ RMS error, per method, from cross-validation on training data.
    var trilaterationScale = 1.0
    var fingerprintScale = 1.0
    var fusion = PositionFusion()

    /// Every method's estimate for one window (emitter → mean RSSI); nil entries when a method
    /// could not answer.
    func estimates(_ window: [Emitter: Double]) -> (trilateration: PositionEstimate?, fingerprint: PositionEstimate?, fused: PositionEstimate?) {
        let readings = window.compactMap { emitter, rssi in anchors[emitter].map { AnchorReading(anchor: $0, rssi: rssi) } }
        var lateration = trilateration.locate(readings)
        lateration?.accuracyMetres *= trilaterationScale
        var matched = fingerprint.locate(window)?.estimate
        matched?.accuracyMetres *= fingerprintScale
        return (lateration, matched, fusion.fuse([lateration, matched].compactMap { $0 }))
    }

    /// The factor that makes the RMS of reported accuracies equal the RMS of errors (1 when
    /// there is nothing to compare).
    static func accuracyScale(errors: [Double], accuracies: [Double]) -> Double {
        let e = errors.reduce(0) { $0 + $1 * $1 }, a = accuracies.reduce(0) { $0 + $1 * $1 }
        guard e > 0, a > 0 else { return 1 }
        return (e / a).squareRoot()
    }
}

/// Error of an estimate against the truth, metres; nil when the method gave no estimate.
func planarError(_ estimate: PositionEstimate?, x: Double, y: Double) -> Double? {
    guard let estimate else { return nil }
    return hypot(estimate.x - x, estimate.y - y)
}
