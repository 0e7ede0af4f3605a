import Foundation

/// An iBeacon of known position (the beacon registry, `/v1/beacons`).
public struct Beacon: Codable, Hashable, Sendable {
    public var id: Int64
    public var uuid: UUID
    public var major: UInt16
    public var minor: UInt16
    public var floorID: Int64
    /// Metres on the floor's plan; `z` is the height above that floor.
    public var x: Double
    public var y: Double
    public var z: Double
    /// RSSI at 1 m, dBm, as configured in the beacon (iBeacon "measured power").
    public var measuredPower: Int
    /// Free-form labels for integrators (e.g. "asset": "stairwell B").
    public var metadata: [String: String]

    public init(
        id: Int64, uuid: UUID, major: UInt16, minor: UInt16, floorID: Int64,
        x: Double, y: Double, z: Double = 0, measuredPower: Int, metadata: [String: String] = [:]
    ) {
        self.id = id
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.floorID = floorID
        self.x = x
        self.y = y
        self.z = z
        self.measuredPower = measuredPower
        self.metadata = metadata
    }

    public var beaconID: BeaconID { BeaconID(uuid: uuid, major: major, minor: minor) }
}
