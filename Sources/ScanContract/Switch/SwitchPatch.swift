/// A field of a PATCH body: left out (unchanged), `null` (cleared) or a value.
public enum FieldUpdate<Value: Sendable & Hashable>: Sendable, Hashable {
    case unchanged
    case set(Value?)

    public func applied(to current: Value?) -> Value? {
        switch self {
        case .unchanged: current
        case .set(let value): value
        }
    }
}

/// A change to a scan switch, as `PATCH /v1/scanners/{id}/switch` takes it. Fields left out keep
/// their value; `roomID`, `locationID` and `stopAfter` may be `null` to clear them.
public struct SwitchPatch: Sendable, Hashable {
    public var scanning: Bool?
    public var mode: ScanMode?
    public var roomID: FieldUpdate<Int64>
    public var locationID: FieldUpdate<Int64>
    public var storeData: Bool?
    public var stopAfter: FieldUpdate<StopCondition>
    public var allowList: FieldUpdate<ScanAllowList>
    /// When given, the change applies only if the switch is still at this revision (else 409).
    public var expectedRevision: Int?

    public init(
        scanning: Bool? = nil, mode: ScanMode? = nil, roomID: FieldUpdate<Int64> = .unchanged,
        locationID: FieldUpdate<Int64> = .unchanged, storeData: Bool? = nil,
        stopAfter: FieldUpdate<StopCondition> = .unchanged, expectedRevision: Int? = nil,
        allowList: FieldUpdate<ScanAllowList> = .unchanged
    ) {
        self.allowList = allowList
        self.scanning = scanning
        self.mode = mode
        self.roomID = roomID
        self.locationID = locationID
        self.storeData = storeData
        self.stopAfter = stopAfter
        self.expectedRevision = expectedRevision
    }
}

extension SwitchPatch: Codable {
    enum CodingKeys: String, CodingKey {
        case scanning, mode, roomID, locationID, storeData, stopAfter, expectedRevision, allowList
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        scanning = try c.decodeUnlessAbsent(Bool.self, forKey: .scanning)
        mode = try c.decodeUnlessAbsent(ScanMode.self, forKey: .mode)
        storeData = try c.decodeUnlessAbsent(Bool.self, forKey: .storeData)
        expectedRevision = try c.decodeUnlessAbsent(Int.self, forKey: .expectedRevision)
        roomID = try c.decodeUpdate(Int64.self, forKey: .roomID)
        locationID = try c.decodeUpdate(Int64.self, forKey: .locationID)
        stopAfter = try c.decodeUpdate(StopCondition.self, forKey: .stopAfter)
        allowList = try c.decodeUpdate(ScanAllowList.self, forKey: .allowList)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(scanning, forKey: .scanning)
        try c.encodeIfPresent(mode, forKey: .mode)
        try c.encodeIfPresent(storeData, forKey: .storeData)
        try c.encodeIfPresent(expectedRevision, forKey: .expectedRevision)
        try c.encodeUpdate(roomID, forKey: .roomID)
        try c.encodeUpdate(locationID, forKey: .locationID)
        try c.encodeUpdate(stopAfter, forKey: .stopAfter)
        try c.encodeUpdate(allowList, forKey: .allowList)
    }
}
