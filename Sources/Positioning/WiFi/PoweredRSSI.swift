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

/// The "powed" RSSI representation of Torres-Sospedra et al. (2015): a reading of `rssi` dBm becomes
/// `((rssi − floor) / −floor) ^ exponent`, a number in 0…1 where 0 means "not heard". Raising to a
/// power above 1 shrinks the weak, unstable readings relative to the strong ones.
public struct PoweredRSSI: Hashable, Sendable {
    /// The weakest RSSI a receiver reports, dBm; it and anything weaker map to 0. Negative.
    public var floorDBm: Double
    /// The power applied to the positive, normalised RSSI; e (Euler's number) in the paper.
    public var exponent: Double
    /// Readings weaker than this (dBm) are treated as not heard.
    public var weakestHeardDBm: Double

    /// Readings at or below −104 dBm are "not heard" in UJIIndoorLoc, the weakest any of its phones reported.
    public init(floorDBm: Double = -104, exponent: Double = 2.718281828459045, weakestHeardDBm: Double = -104) {
        self.floorDBm = floorDBm
        self.exponent = exponent
        self.weakestHeardDBm = weakestHeardDBm
    }

    /// The representation of one reading; 0 for a reading too weak to count, 1 for 0 dBm and above.
    public func value(_ rssi: Double) -> Double {
        guard rssi >= weakestHeardDBm, rssi > floorDBm else { return 0 }
        let positive = min((rssi - floorDBm) / -floorDBm, 1)
        return exponent == 1 ? positive : pow(positive, exponent)
    }
}
