/// Locations (each on a floor) joined by undirected links of known length: what routes are
/// found on. Build it with ``addLocation(_:floorID:)`` and ``addLink(_:_:metres:)``.
public struct RouteGraph: Sendable {
    struct Neighbour: Sendable {
        var location: Int64
        var metres: Double
    }

    private(set) var floors: [Int64: Int64] = [:]
    private(set) var neighbours: [Int64: [Neighbour]] = [:]

    public init() {}

    /// Adds a location; adding one again moves it to `floorID`.
    public mutating func addLocation(_ id: Int64, floorID: Int64) {
        floors[id] = floorID
    }

    /// Joins `a` and `b` both ways. Both must be added as locations before a route uses the link;
    /// a second link between them is another way, and the shorter one wins.
    public mutating func addLink(_ a: Int64, _ b: Int64, metres: Double) {
        neighbours[a, default: []].append(Neighbour(location: b, metres: metres))
        neighbours[b, default: []].append(Neighbour(location: a, metres: metres))
    }

    public func contains(_ location: Int64) -> Bool {
        floors[location] != nil
    }

    func floor(of location: Int64) -> Int64? {
        floors[location]
    }
}

/// The shortest walk found between two locations.
public struct ShortestPath: Hashable, Sendable {
    /// The locations passed, first the start and last the end.
    public var path: [Int64]
    public var distanceMetres: Double
    /// How many steps of the path join locations on different floors.
    public var floorChanges: Int

    public init(path: [Int64], distanceMetres: Double, floorChanges: Int) {
        self.path = path
        self.distanceMetres = distanceMetres
        self.floorChanges = floorChanges
    }
}

/// Why no route was found.
public enum RouteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The graph has no such location.
    case unknownLocation(Int64)
    /// No chain of links joins the two locations.
    case unreachable(from: Int64, to: Int64)

    public var description: String {
        switch self {
        case .unknownLocation(let id): "no location \(id)"
        case .unreachable(let from, let to): "no chain of links joins location \(from) to location \(to)"
        }
    }
}
