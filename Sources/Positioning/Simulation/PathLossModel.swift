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

/// The log-distance path-loss model with log-normal shadowing:
/// `RSSI(d) = P₁ − 10·n·log10(d / 1 m) + X`, `X ~ N(0, σ²)`.
public struct PathLossModel: Hashable, Sendable {
    /// RSSI at 1 m, dBm (an iBeacon's "measured power").
    public var powerAt1m: Double
    /// Path-loss exponent n: 2 in free space, 2.5–4 indoors.
    public var exponent: Double
    /// Shadowing standard deviation σ, dB.
    public var shadowingSigma: Double

    public init(powerAt1m: Double, exponent: Double, shadowingSigma: Double) {
        self.powerAt1m = powerAt1m
        self.exponent = exponent
        self.shadowingSigma = shadowingSigma
    }

    /// The mean RSSI at `distance` metres (distances under 0.1 m count as 0.1 m).
    public func meanRSSI(atDistance distance: Double) -> Double {
        powerAt1m - 10 * exponent * log10(max(distance, 0.1))
    }

    /// One noisy reading at `distance` metres, rounded to whole dBm as radios report it.
    public func sampleRSSI(atDistance distance: Double, using generator: inout some RandomNumberGenerator) -> Int {
        Int((meanRSSI(atDistance: distance) + shadowingSigma * generator.nextGaussian()).rounded())
    }
}

/// A point on a floor plan, metres.
public struct PlanPoint: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public func distance(to other: PlanPoint) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }
}
