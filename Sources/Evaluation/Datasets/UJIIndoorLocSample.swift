import Positioning

/// One row of the UJIIndoorLoc Wi-Fi fingerprinting benchmark (Torres-Sospedra et al., IPIN 2014).
public struct UJIIndoorLocSample: Hashable, Sendable {
    /// RSSI in dBm per access point, keyed by its column number (WAP001 is 1); the dataset's
    /// "not detected" value (100) is left out.
    public var readings: [Int: Double]
    /// Position in EPSG:3857 (Web Mercator) metres.
    public var longitude: Double
    public var latitude: Double
    public var floor: Int
    public var buildingID: Int
    public var spaceID: Int
    /// 1 inside the space, 2 in front of its door; 0 in the validation file.
    public var relativePosition: Int
    public var userID: Int
    public var phoneID: Int
    /// UNIX time, seconds.
    public var timestamp: Int

    public init(
        readings: [Int: Double], longitude: Double, latitude: Double, floor: Int, buildingID: Int,
        spaceID: Int, relativePosition: Int, userID: Int, phoneID: Int, timestamp: Int
    ) {
        self.readings = readings
        self.longitude = longitude
        self.latitude = latitude
        self.floor = floor
        self.buildingID = buildingID
        self.spaceID = spaceID
        self.relativePosition = relativePosition
        self.userID = userID
        self.phoneID = phoneID
        self.timestamp = timestamp
    }
}

extension UJIIndoorLocSample {
    /// This row as a survey fingerprint: building named by its number, floor as the level.
    public var fingerprint: FingerprintRecord<Int> {
        FingerprintRecord(
            building: String(buildingID), floorID: Int64(floor), x: longitude, y: latitude, readings: readings)
    }
}
