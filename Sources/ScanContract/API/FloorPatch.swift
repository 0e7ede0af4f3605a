/// A change to a floor, as `PATCH /v1/floors/{id}` takes it. Fields left out keep their value;
/// `scale` may be `null` to forget the plan's scale.
public struct FloorPatch: Sendable, Hashable {
    public var building: String?
    public var name: String?
    public var level: Int?
    public var scale: FieldUpdate<PlanScale>

    public init(building: String? = nil, name: String? = nil, level: Int? = nil, scale: FieldUpdate<PlanScale> = .unchanged) {
        self.building = building
        self.name = name
        self.level = level
        self.scale = scale
    }

    public func validate() throws(ValidationError) {
        if let name { try validateName(name, field: "name") }
        if let building { try validateName(building, field: "building") }
        if case .set(let scale?) = scale { try scale.validate() }
    }
}

extension FloorPatch: Codable {
    enum CodingKeys: String, CodingKey {
        case building, name, level, scale
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        building = try c.decodeUnlessAbsent(String.self, forKey: .building)
        name = try c.decodeUnlessAbsent(String.self, forKey: .name)
        level = try c.decodeUnlessAbsent(Int.self, forKey: .level)
        scale = try c.decodeUpdate(PlanScale.self, forKey: .scale)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(building, forKey: .building)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(level, forKey: .level)
        try c.encodeUpdate(scale, forKey: .scale)
    }
}

/// A change to a room, as `PATCH /v1/rooms/{id}` takes it: its new name.
public struct RoomPatch: Codable, Hashable, Sendable {
    public var name: String?

    public init(name: String? = nil) {
        self.name = name
    }

    public func validate() throws(ValidationError) {
        if let name { try validateName(name, field: "name") }
    }
}
