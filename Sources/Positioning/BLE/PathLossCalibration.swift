#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A path-loss model per emitter sharing one exponent: each emitter (or receiver) keeps its own
/// power at 1 m, since radios of one make differ by a few dB, while the building sets how fast
/// the signal fades.
public struct PathLossCalibration: Hashable, Sendable {
    public var exponent: Double
    /// Fitted power at 1 m, dBm, per emitter.
    public var powerAt1m: [Emitter: Double]
    /// Spread of the residuals of the fit, dB.
    public var shadowingSigma: Double

    public init(exponent: Double, powerAt1m: [Emitter: Double], shadowingSigma: Double) {
        self.exponent = exponent
        self.powerAt1m = powerAt1m
        self.shadowingSigma = shadowingSigma
    }

    /// The model of one emitter; nil when the fit did not see it.
    public func model(for emitter: Emitter) -> PathLossModel? {
        powerAt1m[emitter].map { PathLossModel(powerAt1m: $0, exponent: exponent, shadowingSigma: shadowingSigma) }
    }

    /// Least squares over all samples: RSSI = P₁(emitter) − 10·n·log10(d). Solved by centring
    /// each emitter's samples (the per-emitter powers drop out of the slope). Throws as
    /// `PathLossModel.fit` does; each emitter needs 2 usable samples to be kept.
    public static func fit(_ samples: [Emitter: [PathLossSample]]) throws(PathLossFitError) -> PathLossCalibration {
        var centred: [(x: Double, y: Double)] = []
        var means: [Emitter: (x: Double, y: Double)] = [:]
        for (emitter, list) in samples {
            let usable = list.filter(\.isUsable)
            guard usable.count >= 2 else { continue }
            let xs = usable.map { log10(max($0.distance, PathLossModel.shortestDistance)) }
            let meanX = xs.reduce(0, +) / Double(xs.count)
            let meanY = usable.reduce(0) { $0 + $1.rssi } / Double(usable.count)
            means[emitter] = (meanX, meanY)
            centred += zip(xs, usable).map { ($0 - meanX, $1.rssi - meanY) }
        }
        guard centred.count >= 3 else { throw .tooFewSamples(usable: centred.count, needed: 3) }
        let sxx = centred.reduce(0) { $0 + $1.x * $1.x }
        guard sxx / Double(centred.count) > 1e-6 else { throw .distancesTooAlike }
        let slope = centred.reduce(0) { $0 + $1.x * $1.y } / sxx
        let exponent = -slope / 10
        guard PathLossModel.plausibleExponents.contains(exponent) else { throw .implausibleExponent(exponent) }
        let residual = centred.reduce(0) { $0 + ($1.y - slope * $1.x) * ($1.y - slope * $1.x) }
        let degrees = max(Double(centred.count - means.count - 1), 1)
        return PathLossCalibration(
            exponent: exponent,
            powerAt1m: means.mapValues { $0.y - slope * $0.x },
            shadowingSigma: (residual / degrees).squareRoot()
        )
    }
}
