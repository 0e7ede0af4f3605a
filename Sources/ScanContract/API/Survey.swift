#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A floor of a building; rooms and locations hang below it.
public struct Floor: Codable, Hashable, Sendable {
    public var id: Int64
    public var building: String
    public var name: String
    /// Storey number (0 ground, negative below), for ordering and routes between floors.
    public var level: Int
    /// The uploaded plan image; absent when none was uploaded.
    public var plan: FloorPlanInfo?
    /// How the plan's pixels map to metres; absent until set.
    public var scale: PlanScale?

    public init(id: Int64, building: String, name: String, level: Int, plan: FloorPlanInfo? = nil, scale: PlanScale? = nil) {
        self.id = id
        self.building = building
        self.name = name
        self.level = level
        self.plan = plan
        self.scale = scale
    }
}

public struct NewFloor: Codable, Hashable, Sendable {
    public var building: String?
    public var name: String
    public var level: Int?

    public init(building: String? = nil, name: String, level: Int? = nil) {
        self.building = building
        self.name = name
        self.level = level
    }

    public func validate() throws(ValidationError) {
        try validateName(name, field: "name")
        if let building { try validateName(building, field: "building") }
    }
}

public struct Room: Codable, Hashable, Sendable {
    public var id: Int64
    public var floorID: Int64
    public var name: String
    /// The room's shape: its corners `[x, y]` in plan metres, in order; absent when it has none
    /// (`PUT /v1/rooms/{id}/outline`).
    public var outline: [[Double]]?

    public init(id: Int64, floorID: Int64, name: String, outline: [[Double]]? = nil) {
        self.id = id
        self.floorID = floorID
        self.name = name
        self.outline = outline
    }
}

public struct NewRoom: Codable, Hashable, Sendable {
    public var floorID: Int64
    public var name: String

    public init(floorID: Int64, name: String) {
        self.floorID = floorID
        self.name = name
    }

    public func validate() throws(ValidationError) {
        try validateName(name, field: "name")
    }
}

/// A surveyed spot: x, y in metres on its floor's plan.
public struct Location: Codable, Hashable, Sendable {
    public var id: Int64
    public var roomID: Int64
    public var floorID: Int64
    public var name: String
    public var x: Double
    public var y: Double
    /// WGS 84 degrees, present only when the floor is geo-referenced (`PUT /v1/floors/{id}/georeference`).
    public var latitude: Double?
    public var longitude: Double?
    /// Present on a walk point: the walk survey (``Walk``) that made this location for one scan cycle.
    public var walkID: Int64?

    public init(id: Int64, roomID: Int64, floorID: Int64, name: String, x: Double, y: Double, walkID: Int64? = nil) {
        self.id = id
        self.roomID = roomID
        self.floorID = floorID
        self.name = name
        self.x = x
        self.y = y
        self.walkID = walkID
    }
}

/// A location to create (`POST /v1/locations`): in room `roomID`, or, with `floorID` instead,
/// in the room whose outline holds (`x`, `y`) on that floor.
public struct NewLocation: Codable, Hashable, Sendable {
    public var roomID: Int64?
    public var floorID: Int64?
    public var name: String?
    public var x: Double
    public var y: Double

    public init(roomID: Int64? = nil, floorID: Int64? = nil, name: String? = nil, x: Double, y: Double) {
        self.roomID = roomID
        self.floorID = floorID
        self.name = name
        self.x = x
        self.y = y
    }

    public static let coordinateLimit = 100_000.0

    public func validate() throws(ValidationError) {
        if (roomID == nil) == (floorID == nil) {
            throw ValidationError(field: "roomID", reason: "give roomID, or floorID for the room whose outline holds the point (not both)")
        }
        if let name { try validateName(name, field: "name") }
        for (field, value) in [("x", x), ("y", y)] where !(value.isFinite && abs(value) <= Self.coordinateLimit) {
            throw ValidationError(field: field, reason: "must be a finite number of metres within ±\(Int(Self.coordinateLimit)), got \(value)")
        }
    }
}

/// A scanner known to switchd.
public struct Scanner: Codable, Hashable, Sendable {
    public var id: ScannerID
    public var name: String
    /// Its health as switchd last heard it (``ScannerHealth``): in `GET /v1/scanners` and
    /// `GET /v1/scanners/{id}`, absent in the answer to `POST /v1/scanners`.
    public var health: ScannerHealth?

    public init(id: ScannerID, name: String, health: ScannerHealth? = nil) {
        self.id = id
        self.name = name
        self.health = health
    }

    private enum CodingKeys: String, CodingKey {
        case id, name
    }

    // The health's fields sit beside `id` and `name` in the JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(ScannerID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        let health = try ScannerHealth(from: decoder)
        self.health = health.online == nil ? nil : health
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try health?.encode(to: encoder)
    }
}

public struct NewScanner: Codable, Hashable, Sendable {
    public var id: ScannerID
    public var name: String?

    public init(id: ScannerID, name: String? = nil) {
        self.id = id
        self.name = name
    }
}

/// What `POST /v1/rooms/{id}/clear` removed.
public struct ClearedRoom: Codable, Hashable, Sendable {
    public var roomID: Int64
    public var measurementsDeleted: Int

    public init(roomID: Int64, measurementsDeleted: Int) {
        self.roomID = roomID
        self.measurementsDeleted = measurementsDeleted
    }
}

public let maxNameLength = 200

/// A name must hold something besides white space, at most ``maxNameLength`` characters, and no
/// control characters (Unicode category Cc: tabs, newlines, escape, DEL, C1 controls), which
/// would break log lines, exports and the admin page's layout.
///
/// - Throws: ``ValidationError`` naming `field` and the first offending character's position.
func validateName(_ name: String, field: String) throws(ValidationError) {
    guard !name.allSatisfy(\.isWhitespace) else {
        throw ValidationError(field: field, reason: "must not be empty")
    }
    guard name.count <= maxNameLength else {
        throw ValidationError(field: field, reason: "must be at most \(maxNameLength) characters, got \(name.count)")
    }
    if let offset = name.unicodeScalars.firstIndex(where: { $0.properties.generalCategory == .control }) {
        let scalar = name.unicodeScalars[offset]
        let position = name.unicodeScalars.distance(from: name.unicodeScalars.startIndex, to: offset)
        let digits = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        throw ValidationError(field: field, reason: "must not contain control characters; found \(code) at position \(position)")
    }
}
