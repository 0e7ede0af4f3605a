#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// An emitter of known position that positioning can range to: a fixed iBeacon heard by the
/// scanner, or (in datasets of the reverse topology) a fixed receiver hearing a carried beacon.
public struct RangingAnchor: Hashable, Sendable {
    public var emitter: Emitter
    public var floorID: Int64?
    /// Metres on the floor's plan; `z` is the height above the floor.
    public var x: Double
    public var y: Double
    public var z: Double
    /// How this anchor's signal fades with distance.
    public var model: PathLossModel

    public init(emitter: Emitter, floorID: Int64?, x: Double, y: Double, z: Double, model: PathLossModel) {
        self.emitter = emitter
        self.floorID = floorID
        self.x = x
        self.y = y
        self.z = z
        self.model = model
    }

    /// A registered beacon: its measured power as the power at 1 m, the floor's fitted exponent
    /// (or `defaultExponent`) and `shadowingSigma` dB of spread.
    public init(beacon: Beacon, exponent: Double?, defaultExponent: Double = 2.0, shadowingSigma: Double = 4.5) {
        self.init(
            emitter: .beacon(beacon.beaconID), floorID: beacon.floorID, x: beacon.x, y: beacon.y, z: beacon.z,
            model: PathLossModel(powerAt1m: Double(beacon.measuredPower), exponent: exponent ?? defaultExponent, shadowingSigma: shadowingSigma)
        )
    }
}

/// An anchor heard with an RSSI (one reading, or the mean over a window).
public struct AnchorReading: Hashable, Sendable {
    public var anchor: RangingAnchor
    /// RSSI, dBm.
    public var rssi: Double

    public init(anchor: RangingAnchor, rssi: Double) {
        self.anchor = anchor
        self.rssi = rssi
    }
}
