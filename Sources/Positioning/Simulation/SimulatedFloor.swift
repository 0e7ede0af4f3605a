#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// A floor with radios at known positions, for the simulated radio source and for tests.
public struct SimulatedFloor: Hashable, Sendable {
    public struct AccessPoint: Hashable, Sendable {
        public var wifi: WiFiObservation
        public var position: PlanPoint
        public var pathLoss: PathLossModel

        public init(wifi: WiFiObservation, position: PlanPoint, pathLoss: PathLossModel) {
            self.wifi = wifi
            self.position = position
            self.pathLoss = pathLoss
        }
    }

    public struct Beacon: Hashable, Sendable {
        public var ble: BLEObservation
        public var position: PlanPoint
        public var pathLoss: PathLossModel
        /// Advertisements per second.
        public var advertisingRate: Double

        public init(ble: BLEObservation, position: PlanPoint, pathLoss: PathLossModel, advertisingRate: Double) {
            self.ble = ble
            self.position = position
            self.pathLoss = pathLoss
            self.advertisingRate = advertisingRate
        }
    }

    public var accessPoints: [AccessPoint]
    public var beacons: [Beacon]
    /// Tags moving about the floor, advertising like beacons (none on the demo floor).
    public var tags: [MovingTag]
    /// Below this a radio is not heard (receiver sensitivity), dBm.
    public var sensitivity: Int

    public init(accessPoints: [AccessPoint], beacons: [Beacon], tags: [MovingTag] = [], sensitivity: Int = -95) {
        self.accessPoints = accessPoints
        self.beacons = beacons
        self.tags = tags
        self.sensitivity = sensitivity
    }

    /// A 40 m × 20 m office floor: six access points on channels 1/6/11 and 36/44, four iBeacons in the
    /// corners advertising at 10 Hz. Indoor exponents and shadowing as commonly measured (n ≈ 3,
    /// σ ≈ 4 dB).
    public static func demo() -> SimulatedFloor {
        let wifiModel = PathLossModel(powerAt1m: -38, exponent: 3.0, shadowingSigma: 4)
        let apSpots: [(PlanPoint, Int, String)] = [
            (PlanPoint(x: 5, y: 5), 2412, "floorscan-lab"), (PlanPoint(x: 20, y: 4), 2437, "floorscan-lab"),
            (PlanPoint(x: 35, y: 6), 2462, "floorscan-lab"), (PlanPoint(x: 6, y: 16), 5180, "floorscan-5g"),
            (PlanPoint(x: 21, y: 15), 5220, "floorscan-5g"), (PlanPoint(x: 34, y: 16), 2437, "guest"),
        ]
        let accessPoints = apSpots.enumerated().map { index, spot in
            AccessPoint(
                // 02:00:00:00:0K:00, as mac80211_hwsim names radio K.
                wifi: WiFiObservation(bssid: BSSID(rawValue: 0x02_00_00_00_00_00 | UInt64(index + 1) << 8), ssid: spot.2, frequencyMHz: spot.1),
                position: spot.0, pathLoss: wifiModel
            )
        }
        let beaconSpots = [PlanPoint(x: 1, y: 1), PlanPoint(x: 39, y: 1), PlanPoint(x: 1, y: 19), PlanPoint(x: 39, y: 19)]
        let beacons = beaconSpots.enumerated().map { index, spot in
            Beacon(
                ble: BLEObservation(
                    address: BLEAddress(rawValue: 0xC0_FF_EE_00_00_00 | UInt64(index + 1)),
                    beacon: BeaconID(uuid: demoBeaconUUID, major: 1, minor: UInt16(index + 1)), txPower: -59
                ),
                position: spot, pathLoss: PathLossModel(powerAt1m: -59, exponent: 2.5, shadowingSigma: 4),
                advertisingRate: 10
            )
        }
        return SimulatedFloor(accessPoints: accessPoints, beacons: beacons)
    }

    /// The UUID of the demo floor's iBeacons (major 1) and of its moving tags (major 2).
    public static let demoBeaconUUID = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
}
