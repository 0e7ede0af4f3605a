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

/// One calibration reading: a scanner heard an emitter of known power at a known distance.
public struct ReceiveOffsetSample: Hashable, Sendable {
    /// What the scanner reported, dBm (a window's median).
    public var rssi: Double
    /// The emitter's power at 1 m, dBm.
    public var txPower: Double
    /// 3-D distance between the emitter and the scanner, metres.
    public var distance: Double
    /// The scanner's log-distance exponent.
    public var exponent: Double

    public init(rssi: Double, txPower: Double, distance: Double, exponent: Double) {
        self.rssi = rssi
        self.txPower = txPower
        self.distance = distance
        self.exponent = exponent
    }
}

/// A scanner's receive offset: the dB to add to what it reports so it reads like the reference
/// receiver the emitters' powers are given for. The median over samples of (model RSSI −
/// reported RSSI), so a few readings through a wall do not drag it.
public struct ReceiveOffsetEstimate: Hashable, Sendable {
    public var offset: Double
    public var samples: Int

    /// Distances under this are taken as this, metres: the model breaks down in the near field.
    public static let nearestDistance = 0.5
    /// Largest offset reported, dB; beyond it the placement or the emitters are wrong, not the receiver.
    public static let limit = 30.0

    public init(offset: Double, samples: Int) {
        self.offset = offset
        self.samples = samples
    }

    /// The estimate from `samples`; nil when none is finite.
    public init?(_ samples: [ReceiveOffsetSample]) {
        let residuals = samples.compactMap { sample -> Double? in
            let d = max(sample.distance, Self.nearestDistance)
            let residual = sample.txPower - 10 * sample.exponent * log10(d) - sample.rssi
            return residual.isFinite ? residual : nil
        }.sorted()
        guard !residuals.isEmpty else { return nil }
        let middle = residuals.count / 2
        let median = residuals.count % 2 == 1 ? residuals[middle] : (residuals[middle - 1] + residuals[middle]) / 2
        self.init(offset: min(max(median, -Self.limit), Self.limit), samples: residuals.count)
    }
}
