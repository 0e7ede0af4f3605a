/// The seed system's scan switch, as its Raspberry Pi polled it from `/scanSwitch/1`.
///
/// Mapped onto the default scanner: `shouldScan` is `scanning`; `storeData: true` was the seed's
/// survey (readings become fingerprints), `storeData: false` its positioning scan (locate mode).
public struct SeedScanSwitch: Codable, Hashable, Sendable {
    public var id: Int
    public var shouldScan: Bool
    public var roomID: Int64?
    public var locationID: Int64?
    public var storeData: Bool

    public init(_ scanSwitch: ScanSwitch) {
        id = 1
        shouldScan = scanSwitch.scanning
        roomID = scanSwitch.roomID
        locationID = scanSwitch.locationID
        storeData = scanSwitch.storeData
    }
}

/// A seed client's `PATCH /scanSwitch/1` body; every field may be left out.
public struct SeedSwitchPatch: Codable, Hashable, Sendable {
    public var shouldScan: Bool?
    public var roomID: Int64?
    public var locationID: Int64?
    public var storeData: Bool?

    public init(shouldScan: Bool? = nil, roomID: Int64? = nil, locationID: Int64? = nil, storeData: Bool? = nil) {
        self.shouldScan = shouldScan
        self.roomID = roomID
        self.locationID = locationID
        self.storeData = storeData
    }

    /// A field may be left out; `null` is refused (422 naming it), as in the v1 switch patch.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        shouldScan = try c.decodeUnlessAbsent(Bool.self, forKey: .shouldScan)
        roomID = try c.decodeUnlessAbsent(Int64.self, forKey: .roomID)
        locationID = try c.decodeUnlessAbsent(Int64.self, forKey: .locationID)
        storeData = try c.decodeUnlessAbsent(Bool.self, forKey: .storeData)
    }

    /// The same change in v1 terms. The seed sent `0` for "no room/location"; that clears them.
    public var switchPatch: SwitchPatch {
        SwitchPatch(
            scanning: shouldScan,
            mode: storeData.map { $0 ? .survey : .locate },
            roomID: roomID.map { .set($0 == 0 ? nil : $0) } ?? .unchanged,
            locationID: locationID.map { .set($0 == 0 ? nil : $0) } ?? .unchanged,
            storeData: storeData
        )
    }
}
