/// One surveyed Wi-Fi fingerprint: where it was taken and what was heard there.
///
/// Generic over the key that names a radio: `Emitter` on a device, a column number for a
/// public dataset whose access points carry no address.
public struct FingerprintRecord<Key: Hashable & Sendable>: Sendable {
    /// The building's name; positioning decides the building before the floor.
    public var building: String
    /// The floor, as the radio map numbers it (a floor id or a level).
    public var floorID: Int64
    public var x: Double
    public var y: Double
    /// The surveyed location this sample belongs to, when known.
    public var locationID: Int64?
    /// RSSI in dBm of every radio heard in this sample; radios not heard are absent.
    public var readings: [Key: Double]

    public init(building: String, floorID: Int64, x: Double, y: Double, locationID: Int64? = nil, readings: [Key: Double]) {
        self.building = building
        self.floorID = floorID
        self.x = x
        self.y = y
        self.locationID = locationID
        self.readings = readings
    }
}
