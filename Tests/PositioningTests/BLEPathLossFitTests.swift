import Foundation
@testable import Positioning
import ScanContract
import Testing

@Suite("BLE path-loss fit")
struct BLEPathLossFitTests {
    let truth = PathLossModel(powerAt1m: -59, exponent: 2.5, shadowingSigma: 0)

    func samples(_ model: PathLossModel, at distances: [Double]) -> [PathLossSample] {
        distances.map { PathLossSample(distance: $0, rssi: model.meanRSSI(atDistance: $0)) }
    }

    @Test func recoversExactParameters() throws {
        let fitted = try PathLossModel.fit(samples(truth, at: [0.5, 1, 2, 4, 8]))
        #expect(abs(fitted.powerAt1m - -59) < 1e-9)
        #expect(abs(fitted.exponent - 2.5) < 1e-9)
        #expect(fitted.shadowingSigma < 1e-9)
    }

    @Test func spreadIsTheResidualStandardDeviation() throws {
        // −59 − 25·log10(d) ± 2 dB alternating at 4 distances: residuals ±2 exactly after the fit
        // (the alternation is symmetric around the line), 4 samples − 2 parameters.
        var points = samples(truth, at: [1, 1, 10, 10])
        points[0].rssi += 2; points[1].rssi -= 2; points[2].rssi += 2; points[3].rssi -= 2
        let fitted = try PathLossModel.fit(points)
        #expect(abs(fitted.exponent - 2.5) < 1e-9)
        #expect(abs(fitted.shadowingSigma - (16.0 / 2).squareRoot()) < 1e-9)
    }

    @Test func exponentAloneWithKnownPower() throws {
        let fitted = try PathLossModel.fitExponent(samples(truth, at: [2, 5]), powerAt1m: -59)
        #expect(abs(fitted.exponent - 2.5) < 1e-9)
        #expect(fitted.powerAt1m == -59)
    }

    @Test func distanceInvertsMeanRSSI() {
        #expect(abs(truth.distance(forRSSI: truth.meanRSSI(atDistance: 7)) - 7) < 1e-9)
        #expect(truth.distance(forRSSI: 0) == 0.1)
    }

    @Test func notEnoughDataIsAReason() {
        #expect(throws: PathLossFitError.tooFewSamples(usable: 2, needed: 3)) {
            try PathLossModel.fit(samples(truth, at: [1, 2]) + [PathLossSample(distance: 3, rssi: 5), PathLossSample(distance: .nan, rssi: -70)])
        }
        #expect(throws: PathLossFitError.distancesTooAlike) { try PathLossModel.fit(samples(truth, at: [3, 3, 3])) }
        #expect(throws: PathLossFitError.implausibleExponent(-2)) {
            try PathLossModel.fit(samples(PathLossModel(powerAt1m: -70, exponent: -2, shadowingSigma: 0), at: [1, 10, 100]))
        }
        #expect(throws: PathLossFitError.tooFewSamples(usable: 0, needed: 2)) { try PathLossModel.fitExponent([], powerAt1m: -59) }
    }

    @Test func calibrationSharesTheExponentAndKeepsEachPower() throws {
        let a = Emitter.beacon(BeaconID(uuid: UUID(), major: 1, minor: 1))
        let b = Emitter.beacon(BeaconID(uuid: UUID(), major: 1, minor: 2))
        let fitted = try PathLossCalibration.fit([
            a: samples(PathLossModel(powerAt1m: -55, exponent: 1.8, shadowingSigma: 0), at: [1, 3, 9]),
            b: samples(PathLossModel(powerAt1m: -65, exponent: 1.8, shadowingSigma: 0), at: [2, 4]),
        ])
        #expect(abs(fitted.exponent - 1.8) < 1e-9)
        #expect(abs((fitted.powerAt1m[a] ?? 0) - -55) < 1e-9)
        #expect(abs((fitted.powerAt1m[b] ?? 0) - -65) < 1e-9)
        #expect(fitted.model(for: .beacon(BeaconID(uuid: UUID(), major: 9, minor: 9))) == nil)
    }
}
