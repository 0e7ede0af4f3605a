#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

extension SimulatedFloor {
    /// A tag carried around the floor (a bike, an asset, a visitor's badge), heard by fixed
    /// scanners. Its position is a function of the wall clock: the ``Trajectory`` is walked from
    /// ``start`` (1970 unless told), the tag standing at its first point until then, so every
    /// simulated scanner, in this process or another, hears the same tag at the same place at the
    /// same moment, and a test can say where it was at any time.
    public struct MovingTag: Hashable, Sendable {
        public var ble: BLEObservation
        public var trajectory: Trajectory
        public var pathLoss: PathLossModel
        /// Advertisements per second.
        public var advertisingRate: Double
        /// When the tag sets off along its trajectory.
        public var start: Date

        public init(
            ble: BLEObservation, trajectory: Trajectory, pathLoss: PathLossModel, advertisingRate: Double,
            start: Date = Date(timeIntervalSince1970: 0)
        ) {
            self.ble = ble
            self.trajectory = trajectory
            self.pathLoss = pathLoss
            self.advertisingRate = advertisingRate
            self.start = start
        }

        /// Where the tag is at `time`: its trajectory's start point before ``start``.
        public func position(at time: Date) -> PlanPoint {
            trajectory.position(after: max(time.timeIntervalSince(start), 0))
        }

        /// The demo's tag: an iBeacon (the demo beacons' UUID, major 2) advertising 5 times a second
        /// at −59 dBm at 1 m, on a quiet path-loss model (n = 2, σ = 2 dB) so that three fixed
        /// scanners locate it within about 1.5 m.
        public static func demo(walking trajectory: Trajectory, minor: UInt16 = 1, from start: Date = Date(timeIntervalSince1970: 0)) -> MovingTag {
            MovingTag(
                ble: BLEObservation(
                    address: BLEAddress(rawValue: 0xC0_FF_EE_00_10_00 | UInt64(minor)),
                    beacon: BeaconID(uuid: SimulatedFloor.demoBeaconUUID, major: 2, minor: minor), txPower: -59
                ),
                trajectory: trajectory, pathLoss: PathLossModel(powerAt1m: -59, exponent: 2, shadowingSigma: 2), advertisingRate: 5,
                start: start
            )
        }
    }
}
