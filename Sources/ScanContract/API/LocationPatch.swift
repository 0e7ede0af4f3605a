/// A change to a location, as `PATCH /v1/locations/{id}` takes it: a new name, a new spot, or a
/// new room (on any floor). Fields left out keep their value; none may be `null`. The location's
/// fingerprint (its measurements) stays with it.
public struct LocationPatch: Sendable, Hashable {
    public var roomID: Int64?
    public var name: String?
    public var x: Double?
    public var y: Double?

    public init(roomID: Int64? = nil, name: String? = nil, x: Double? = nil, y: Double? = nil) {
        self.roomID = roomID
        self.name = name
        self.x = x
        self.y = y
    }

    public func validate() throws(ValidationError) {
        if let name { try validateName(name, field: "name") }
        try validatePlanCoordinates(x: x ?? 0, y: y ?? 0)
    }
}

extension LocationPatch: Codable {
    enum CodingKeys: String, CodingKey {
        case roomID, name, x, y
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        roomID = try c.decodeUnlessAbsent(Int64.self, forKey: .roomID)
        name = try c.decodeUnlessAbsent(String.self, forKey: .name)
        x = try c.decodeUnlessAbsent(Double.self, forKey: .x)
        y = try c.decodeUnlessAbsent(Double.self, forKey: .y)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(roomID, forKey: .roomID)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(x, forKey: .x)
        try c.encodeIfPresent(y, forKey: .y)
    }
}
