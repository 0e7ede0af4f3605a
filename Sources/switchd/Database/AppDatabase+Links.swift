import Foundation
import GRDB
import Positioning
import ScanContract

extension AppDatabase {
    /// Links two locations, the same both ways. Without a distance: the straight line on one
    /// floor; between floors of one building that line plus ``NewLink/storeyHeightMetres`` per
    /// storey.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming `from` or `to` for an unknown location,
    ///   `kind` for a walk between floors, `distanceMetres` when it is needed (floors of two
    ///   buildings) or out of range; ``StoreError/conflict(_:)`` when the two are already linked.
    func createLink(_ new: NewLink) async throws -> Link {
        try validate(new.validate)
        return try await writer.write { db in
            let from = try Self.linkEnd(new.from, field: "from", in: db)
            let to = try Self.linkEnd(new.to, field: "to", in: db)
            if from.location.floorID != to.location.floorID, !new.kind.changesFloor {
                throw StoreError.invalidField(ValidationError(
                    field: "kind", reason: "locations \(new.from) and \(new.to) are on different floors: use stairs or lift"
                ))
            }
            let distance = try new.distanceMetres ?? Self.defaultDistance(from: from, to: to)
            if let existing = try Int64.fetchOne(db, sql: """
                SELECT id FROM link WHERE min(from_id, to_id) = min(?, ?) AND max(from_id, to_id) = max(?, ?)
                """, arguments: [new.from, new.to, new.from, new.to]) {
                throw StoreError.conflict("locations \(new.from) and \(new.to) are already joined by link \(existing)")
            }
            try db.execute(
                sql: "INSERT INTO link (from_id, to_id, kind, distance_metres) VALUES (?, ?, ?, ?)",
                arguments: [new.from, new.to, new.kind.rawValue, distance]
            )
            return Link(id: db.lastInsertedRowID, from: new.from, to: new.to, kind: new.kind, distanceMetres: distance)
        }
    }

    /// Every link, or those touching one location, ordered by ID.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `locationID` names no location.
    func links(touching locationID: Int64?) async throws -> [Link] {
        try await writer.read { db in
            guard let locationID else { return try Self.allLinks(in: db) }
            guard try Self.roomID(ofLocation: locationID, in: db) != nil else { throw StoreError.notFound("no location \(locationID)") }
            return try Row.fetchAll(db, sql: "\(Self.linkSelect) WHERE from_id = ? OR to_id = ? ORDER BY id", arguments: [locationID, locationID])
                .map(Self.link(from:))
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown link.
    func link(_ id: Int64) async throws -> Link {
        try await writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "\(Self.linkSelect) WHERE id = ?", arguments: [id]) else {
                throw StoreError.notFound("no link \(id)")
            }
            return try Self.link(from: row)
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown link.
    func deleteLink(_ id: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM link WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw StoreError.notFound("no link \(id)") }
        }
    }

    /// Every location and link, as one snapshot, for finding routes.
    func routeGraph() async throws -> RouteGraph {
        try await writer.read { db in
            var graph = RouteGraph()
            for row in try Row.fetchAll(db, sql: "SELECT location.id, room.floor_id FROM location JOIN room ON room.id = location.room_id") {
                graph.addLocation(row[0], floorID: row[1])
            }
            for link in try Self.allLinks(in: db) {
                graph.addLink(link.from, link.to, metres: link.distanceMetres)
            }
            return graph
        }
    }

    private struct LinkEnd {
        var location: Location
        var floor: Floor
    }

    private static func linkEnd(_ id: Int64, field: String, in db: Database) throws -> LinkEnd {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT location.id, location.room_id, room.floor_id, location.name, location.x, location.y,
                   floor.id, floor.building, floor.name, floor.level
            FROM location JOIN room ON room.id = location.room_id JOIN floor ON floor.id = room.floor_id
            WHERE location.id = ?
            """, arguments: [id]) else {
            throw StoreError.invalidField(ValidationError(field: field, reason: "no location \(id)"))
        }
        return LinkEnd(location: location(from: row), floor: Floor(id: row[6], building: row[7], name: row[8], level: row[9]))
    }

    /// The straight line, plus a storey height per level between floors of one building.
    private static func defaultDistance(from: LinkEnd, to: LinkEnd) throws -> Double {
        let straight = ((from.location.x - to.location.x) * (from.location.x - to.location.x)
            + (from.location.y - to.location.y) * (from.location.y - to.location.y)).squareRoot()
        guard from.floor.id != to.floor.id else {
            // Two locations at one spot: a link still needs a length above zero.
            return max(straight, Self.shortestLinkMetres)
        }
        guard from.floor.building == to.floor.building else {
            throw StoreError.invalidField(ValidationError(
                field: "distanceMetres", reason: "is needed between floors of different buildings (\(from.floor.building), \(to.floor.building))"
            ))
        }
        let storeys = Double(abs(from.floor.level - to.floor.level))
        return max(straight + storeys * NewLink.storeyHeightMetres, Self.shortestLinkMetres)
    }

    /// The length given to a link between two locations at the same spot.
    static let shortestLinkMetres = 0.01

    private static func allLinks(in db: Database) throws -> [Link] {
        try Row.fetchAll(db, sql: "\(linkSelect) ORDER BY id").map(link(from:))
    }

    private static let linkSelect = "SELECT id, from_id, to_id, kind, distance_metres FROM link"

    private static func link(from row: Row) throws -> Link {
        let id: Int64 = row[0]
        let kindText: String = row[3]
        guard let kind = LinkKind(rawValue: kindText) else { throw StoreError.corruptRow("link \(id) has kind \"\(kindText)\"") }
        return Link(id: id, from: row[1], to: row[2], kind: kind, distanceMetres: row[4])
    }
}
