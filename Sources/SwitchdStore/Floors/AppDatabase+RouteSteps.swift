import Positioning
import ScanContract

/// A shortest path and its turn-by-turn steps, read from one snapshot of the survey.
package struct WalkedRoute: Sendable {
    package var path: ShortestPath
    package var steps: [RouteStep]
}

extension AppDatabase {
    /// The shortest walk from `from` to `to` over the links, with its steps (``RouteSteps``):
    /// each waypoint is named by its room, each leg measured by its link.
    ///
    /// - Throws: ``RouteError`` for an unknown location or when no chain of links joins the two.
    package func walkRoute(from: Int64, to: Int64) async throws -> WalkedRoute {
        try await readStatements { sql in
            let found = try Self.routeGraph(sql).shortestPath(from: from, to: to)
            var waypoints: [RouteWaypoint] = []
            for id in found.path {
                guard let location = try LocationRecord.fetchLocation(sql, id: id) else {
                    throw RouteError.unknownLocation(id)
                }
                let level = try FloorRecord.fetchFloor(sql, id: location.floorID).level
                let room = try RoomRecord.fetchRoom(sql, id: location.roomID)
                waypoints.append(RouteWaypoint(
                    locationID: id, floorID: location.floorID, level: level, x: location.x, y: location.y, name: room?.name ?? location.name
                ))
            }
            var legs: [RouteLeg] = []
            for (a, b) in zip(found.path, found.path.dropFirst()) {
                guard let linkID = try LinkRecord.joining(sql, a, b), let link = try LinkRecord.fetchLink(sql, id: linkID) else {
                    throw RouteError.unreachable(from: a, to: b)
                }
                legs.append(RouteLeg(metres: link.distanceMetres, kind: link.kind))
            }
            return WalkedRoute(path: found, steps: RouteSteps.derive(waypoints: waypoints, legs: legs))
        }
    }
}
