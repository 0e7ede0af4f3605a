import Foundation
import Positioning

/// A fingerprint configuration the training data can choose.
struct BLEFingerprintCandidate: Hashable, Encodable {
    var k: Int
    /// Nil: the surveyed locations only; otherwise the map densified by Gaussian-process
    /// interpolation with this length scale and noise ratio.
    var lengthScale: Double?
    var noiseRatio: Double?

    static let grid: [BLEFingerprintCandidate] =
        [1, 3, 5, 7].map { BLEFingerprintCandidate(k: $0) }
        + [0.3, 1.0].flatMap { noise in [1, 5, 9].map { BLEFingerprintCandidate(k: $0, lengthScale: 2, noiseRatio: noise) } }
}

/// Training data of a BLE evaluation: surveyed locations (with the height of each), the
/// anchors' positions, and validation windows recorded at those locations.
struct BLETrainingSet {
    var locations: [RadioMapLocation]
    var heights: [Double]
    /// Emitter → anchor position (x, y, z); models come from the fit.
    var anchorPositions: [Emitter: (x: Double, y: Double, z: Double)]
    /// Windows recorded at the locations (sequence = index into `locations`).
    var validation: [BLEQuery]
    /// The floor the anchors are on.
    var floorID: Int64 = 1
    /// Readable names of the emitters, for the report.
    var names: [Emitter: String] = [:]

    /// Settings chosen and the accuracy scales measured by `folds`-fold cross-validation over
    /// locations, then the pipeline fitted on all of them. Throws when a path-loss fit fails.
    func fit(folds: Int = 5, candidates: [BLEFingerprintCandidate] = BLEFingerprintCandidate.grid) throws -> (BLEPipeline, BLETrainingReport) {
        var foldErrors: [BLEFingerprintCandidate: [Double]] = [:]
        var foldAccuracies: [BLEFingerprintCandidate: [Double]] = [:]
        var laterationErrors: [Double] = [], laterationAccuracies: [Double] = []
        for fold in 0..<folds {
            let trainIndices = locations.indices.filter { $0 % folds != fold }
            let heldOut = validation.filter { $0.sequence % folds == fold }
            let part = subset(trainIndices)
            let calibration = try part.calibration()
            for candidate in candidates {
                let pipeline = part.pipeline(calibration, candidate)
                for query in heldOut {
                    guard let match = pipeline.fingerprint.locate(query.window)?.estimate else { continue }
                    foldErrors[candidate, default: []].append(hypot(match.x - query.x, match.y - query.y))
                    foldAccuracies[candidate, default: []].append(match.accuracyMetres)
                }
                if candidate == candidates.first {
                    for query in heldOut {
                        guard let estimate = pipeline.estimates(query.window).trilateration else { continue }
                        laterationErrors.append(hypot(estimate.x - query.x, estimate.y - query.y))
                        laterationAccuracies.append(estimate.accuracyMetres)
                    }
                }
            }
        }
        func mean(_ values: [Double]) -> Double { values.isEmpty ? .infinity : values.reduce(0, +) / Double(values.count) }
        let chosen = candidates.min { mean(foldErrors[$0] ?? []) < mean(foldErrors[$1] ?? []) } ?? BLEFingerprintCandidate(k: 1)
        let calibration = try calibration()
        var pipeline = pipeline(calibration, chosen)
        pipeline.trilaterationScale = BLEPipeline.accuracyScale(errors: laterationErrors, accuracies: laterationAccuracies)
        pipeline.fingerprintScale = BLEPipeline.accuracyScale(errors: foldErrors[chosen] ?? [], accuracies: foldAccuracies[chosen] ?? [])
        let report = BLETrainingReport(
            fingerprint: chosen, folds: folds,
            crossValidationMeanError: Dictionary(uniqueKeysWithValues: candidates.map { ("\($0.label)", BLEMethodFigures.rounded(mean(foldErrors[$0] ?? []))) }),
            trilaterationCrossValidationMeanError: BLEMethodFigures.rounded(mean(laterationErrors)),
            pathLossExponent: BLEMethodFigures.rounded(calibration.exponent), shadowingSigma: BLEMethodFigures.rounded(calibration.shadowingSigma),
            powerAt1m: Dictionary(uniqueKeysWithValues: calibration.powerAt1m.map { (names[$0.key] ?? $0.key.description, BLEMethodFigures.rounded($0.value)) }),
            height: BLEMethodFigures.rounded(height),
            trilaterationAccuracyScale: BLEMethodFigures.rounded(pipeline.trilaterationScale),
            fingerprintAccuracyScale: BLEMethodFigures.rounded(pipeline.fingerprintScale)
        )
        return (pipeline, report)
    }

    var height: Double { heights.isEmpty ? 1.2 : heights.reduce(0, +) / Double(heights.count) }

    private func subset(_ indices: [Int]) -> BLETrainingSet {
        BLETrainingSet(locations: indices.map { locations[$0] }, heights: indices.map { heights[$0] }, anchorPositions: anchorPositions, validation: [], floorID: floorID)
    }

    /// Shared exponent and per-anchor power fitted on the locations' mean RSSI.
    func calibration() throws -> PathLossCalibration {
        var samples: [Emitter: [PathLossSample]] = [:]
        for (location, z) in zip(locations, heights) {
            for fingerprint in location.emitters {
                guard let anchor = anchorPositions[fingerprint.emitter] else { continue }
                let d = (pow(location.x - anchor.x, 2) + pow(location.y - anchor.y, 2) + pow(z - anchor.z, 2)).squareRoot()
                samples[fingerprint.emitter, default: []].append(PathLossSample(distance: d, rssi: fingerprint.mean))
            }
        }
        return try PathLossCalibration.fit(samples)
    }

    func pipeline(_ calibration: PathLossCalibration, _ candidate: BLEFingerprintCandidate) -> BLEPipeline {
        var anchors: [Emitter: RangingAnchor] = [:]
        for (emitter, position) in anchorPositions {
            guard let model = calibration.model(for: emitter) else { continue }
            anchors[emitter] = RangingAnchor(emitter: emitter, floorID: floorID, x: position.x, y: position.y, z: position.z, model: model)
        }
        var map = locations
        if let lengthScale = candidate.lengthScale, let noise = candidate.noiseRatio {
            map = RadioMapInterpolation(step: 0.5, lengthScale: lengthScale, noiseRatio: noise).densify(locations, anchors: anchors, height: height)
        }
        return BLEPipeline(
            trilateration: BLETrilateration(settings: .init(height: height)), anchors: anchors,
            fingerprint: BLEFingerprint(locations: map, settings: .init(k: candidate.k))
        )
    }
}

extension BLEFingerprintCandidate {
    var label: String {
        guard let lengthScale, let noiseRatio else { return "surveyed k=\(k)" }
        return "interpolated ℓ=\(lengthScale) noise=\(noiseRatio) k=\(k)"
    }
}

/// What training chose and measured, printed with the results.
struct BLETrainingReport: Encodable {
    var fingerprint: BLEFingerprintCandidate
    var folds: Int
    var crossValidationMeanError: [String: Double]
    var trilaterationCrossValidationMeanError: Double
    var pathLossExponent: Double
    var shadowingSigma: Double
    var powerAt1m: [String: Double]
    var height: Double
    var trilaterationAccuracyScale: Double
    var fingerprintAccuracyScale: Double
}
