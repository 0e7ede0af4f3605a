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

/// One reading for fitting a path-loss model: how far the receiver was from the emitter and what
/// it heard.
public struct PathLossSample: Hashable, Sendable {
    /// Metres between emitter and receiver (3-D).
    public var distance: Double
    /// RSSI, dBm.
    public var rssi: Double

    public init(distance: Double, rssi: Double) {
        self.distance = distance
        self.rssi = rssi
    }
}

/// Why a path-loss model could not be fitted.
public enum PathLossFitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer usable samples than the fit needs.
    case tooFewSamples(usable: Int, needed: Int)
    /// All samples are (nearly) at the same distance, so the slope is undetermined.
    case distancesTooAlike
    /// The fitted exponent is outside the plausible range (walls, reflections or a wrong layout).
    case implausibleExponent(Double)

    public var description: String {
        switch self {
        case .tooFewSamples(let usable, let needed):
            "too few usable samples to fit path loss: \(usable), need at least \(needed) (finite RSSI below 0 dBm, distance above 0)"
        case .distancesTooAlike:
            "the samples' distances are too alike to fit how RSSI falls with distance"
        case .implausibleExponent(let n):
            "the fitted path-loss exponent \(n) is outside 0.5…8; the survey or the beacon positions are probably wrong"
        }
    }
}

extension PathLossModel {
    /// Distances below this are taken as this in fits, as `meanRSSI(atDistance:)` does.
    static let shortestDistance = 0.1
    /// Exponents outside this range are rejected by the fits.
    public static let plausibleExponents = 0.5...8.0

    /// The metres at which the model's mean RSSI equals `rssi` (the inverse of `meanRSSI`),
    /// never below 0.1 m.
    public func distance(forRSSI rssi: Double) -> Double {
        max(pow(10, (powerAt1m - rssi) / (10 * exponent)), Self.shortestDistance)
    }

    /// Least-squares fit of power at 1 m, exponent and shadowing spread from (distance, RSSI)
    /// samples. Samples with a non-finite value, RSSI ≥ 0 dBm or distance ≤ 0 are ignored.
    /// Throws when fewer than 3 usable samples remain, when their distances do not vary, or when
    /// the exponent is implausible.
    public static func fit(_ samples: [PathLossSample]) throws(PathLossFitError) -> PathLossModel {
        let usable = samples.filter(\.isUsable)
        guard usable.count >= 3 else { throw .tooFewSamples(usable: usable.count, needed: 3) }
        let xs = usable.map { log10(max($0.distance, shortestDistance)) }
        let ys = usable.map(\.rssi)
        let n = Double(usable.count)
        let meanX = xs.reduce(0, +) / n
        let meanY = ys.reduce(0, +) / n
        let sxx = xs.reduce(0) { $0 + ($1 - meanX) * ($1 - meanX) }
        guard sxx / n > 1e-6 else { throw .distancesTooAlike }
        let sxy = zip(xs, ys).reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let slope = sxy / sxx
        let exponent = -slope / 10
        guard plausibleExponents.contains(exponent) else { throw .implausibleExponent(exponent) }
        let power = meanY - slope * meanX
        let residuals = zip(xs, ys).map { $0.1 - (power + slope * $0.0) }
        let sigma = (residuals.reduce(0) { $0 + $1 * $1 } / max(n - 2, 1)).squareRoot()
        return PathLossModel(powerAt1m: power, exponent: exponent, shadowingSigma: sigma)
    }

    /// Least-squares fit of the exponent alone, the power at 1 m being known (a beacon's measured
    /// power): what switchd fits per floor from survey data. Throws as `fit(_:)` does; 2 usable
    /// samples are enough.
    public static func fitExponent(_ samples: [PathLossSample], powerAt1m: Double) throws(PathLossFitError) -> PathLossModel {
        let usable = samples.filter(\.isUsable)
        guard usable.count >= 2 else { throw .tooFewSamples(usable: usable.count, needed: 2) }
        let xs = usable.map { log10(max($0.distance, shortestDistance)) }
        let sxx = xs.reduce(0) { $0 + $1 * $1 }
        guard sxx / Double(usable.count) > 1e-6 else { throw .distancesTooAlike }
        // RSSI − P₁ = −10·n·x: slope through the origin.
        let sxy = zip(xs, usable).reduce(0) { $0 + $1.0 * ($1.1.rssi - powerAt1m) }
        let exponent = -sxy / sxx / 10
        guard plausibleExponents.contains(exponent) else { throw .implausibleExponent(exponent) }
        let residuals = zip(xs, usable).map { $0.1.rssi - (powerAt1m - 10 * exponent * $0.0) }
        let sigma = (residuals.reduce(0) { $0 + $1 * $1 } / max(Double(usable.count) - 1, 1)).squareRoot()
        return PathLossModel(powerAt1m: powerAt1m, exponent: exponent, shadowingSigma: sigma)
    }
}

extension PathLossSample {
    var isUsable: Bool { distance.isFinite && distance > 0 && rssi.isFinite && rssi < 0 }
}
