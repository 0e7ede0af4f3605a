import Foundation
import Positioning
import ScanContract

extension AppDatabase {
    /// The length given to a link between two locations at the same spot.
    package static let shortestLinkMetres = 0.01

    /// Links two locations, the same both ways. Without a distance: the straight line on one
    /// floor; between floors of one building that line plus ``NewLink/storeyHeightMetres`` per
    /// storey.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming `from` or `to` for an unknown location,
    ///   `kind` for a walk between floors, `distanceMetres` when it is needed (floors of two
    ///   buildings) or out of range; ``StoreError/conflict(_:)`` when the two are already linked.
    package func createLink(_ new: NewLink) async throws -> Link {
        try validate(new.validate)
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            let from = try Self.linkEnd(new.from, field: "from", in: sql)
            let to = try Self.linkEnd(new.to, field: "to", in: sql)
            if from.location.floorID != to.location.floorID, !new.kind.changesFloor {
                throw StoreError.invalidField(ValidationError(
                    field: "kind", reason: "locations \(new.from) and \(new.to) are on different floors: use stairs or lift"
                ))
            }
            let distance = try new.distanceMetres ?? Self.defaultDistance(from: from, to: to, frames: GeoFrames.load(sql))
            if let existing = try LinkRecord.joining(sql, new.from, new.to) {
                throw StoreError.conflict("locations \(new.from) and \(new.to) are already joined by link \(existing)")
            }
            return try LinkRecord(new, distanceMetres: distance).inserted(sql)
        }
    }

    /// Every link, or those touching one location, ordered by ID.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `locationID` names no location.
    package func links(touching locationID: Int64?) async throws -> [Link] {
        try await readStatements { sql in
            if let locationID, try LocationRecord.roomID(sql, ofLocation: locationID) == nil {
                throw StoreError.notFound("no location \(locationID)")
            }
            return try LinkRecord.fetchLinks(sql, touching: locationID)
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown link.
    package func link(_ id: Int64) async throws -> Link {
        try await readStatements { sql in
            guard let link = try LinkRecord.fetchLink(sql, id: id) else { throw StoreError.notFound("no link \(id)") }
            return link
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown link.
    package func deleteLink(_ id: Int64) async throws {
        try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            guard try sql.execute("DELETE FROM link WHERE id = ?", [.integer(id)]) > 0 else { throw StoreError.notFound("no link \(id)") }
        }
    }

    /// Every location and link, as one snapshot, for finding routes.
    static func routeGraph(_ sql: any StoreTransaction) throws -> RouteGraph {
        var graph = RouteGraph()
        for location in try LocationRecord.fetchLocations(sql) {
            graph.addLocation(location.id, floorID: location.floorID)
        }
        for link in try LinkRecord.fetchLinks(sql) {
            graph.addLink(link.from, link.to, metres: link.distanceMetres)
        }
        return graph
    }

    private struct LinkEnd {
        var location: Location
        var floor: Floor
    }

    private static func linkEnd(_ id: Int64, field: String, in sql: any StoreTransaction) throws -> LinkEnd {
        guard let location = try LocationRecord.fetchLocation(sql, id: id) else {
            throw StoreError.invalidField(ValidationError(field: field, reason: "no location \(id)"))
        }
        return LinkEnd(location: location, floor: try FloorRecord.fetchFloor(sql, id: location.floorID))
    }

    /// The straight line, plus a storey height per level between floors of one building; between
    /// buildings, the great-circle distance of the two locations when both floors are
    /// geo-referenced, plus a storey height per level between them.
    private static func defaultDistance(from: LinkEnd, to: LinkEnd, frames: GeoFrames) throws -> Double {
        let straight = ((from.location.x - to.location.x) * (from.location.x - to.location.x)
            + (from.location.y - to.location.y) * (from.location.y - to.location.y)).squareRoot()
        guard from.floor.id != to.floor.id else {
            // Two locations at one spot: a link still needs a length above zero.
            return max(straight, Self.shortestLinkMetres)
        }
        let storeys = Double(abs(from.floor.level - to.floor.level))
        guard from.floor.building == to.floor.building else {
            guard let start = frames.coordinates(floorID: from.floor.id, x: from.location.x, y: from.location.y),
                  let end = frames.coordinates(floorID: to.floor.id, x: to.location.x, y: to.location.y)
            else {
                throw StoreError.invalidField(ValidationError(
                    field: "distanceMetres",
                    reason: "is needed between floors of different buildings (\(from.floor.building), \(to.floor.building)) unless both floors are geo-referenced"
                ))
            }
            let ground = haversineDistance(latitude1: start.latitude, longitude1: start.longitude, latitude2: end.latitude, longitude2: end.longitude)
            return max(ground + storeys * NewLink.storeyHeightMetres, Self.shortestLinkMetres)
        }
        return max(straight + storeys * NewLink.storeyHeightMetres, Self.shortestLinkMetres)
    }
}
