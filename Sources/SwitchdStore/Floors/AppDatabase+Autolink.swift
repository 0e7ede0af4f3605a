import Positioning
import ScanContract

extension AppDatabase {
    /// Links each pair of the room's locations at most `request.maxDistanceMetres` apart (the
    /// straight line on the plan) by a walk of that length, unless one of `walls` stands between
    /// them. Pairs already linked are counted and left as they are, so running it again makes
    /// nothing new. All or nothing: one transaction.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room; ``StoreError/invalidField(_:)``
    ///   naming `maxDistanceMetres` when it is out of range.
    package func autolink(room roomID: Int64, _ request: AutolinkRequest, walls: [WallSegment]) async throws -> AutolinkResult {
        try validate(request.validate)
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            guard try RoomRecord.fetchRoom(sql, id: roomID) != nil else { throw StoreError.notFound("no room \(roomID)") }
            let locations = try LocationRecord.fetchLocations(sql, filter: "location.room_id = ?", values: [.integer(roomID)])
            var created: [Link] = []
            var alreadyLinked = 0, blocked = 0
            for (index, from) in locations.enumerated() {
                for to in locations[(index + 1)...] {
                    let distance = ((from.x - to.x) * (from.x - to.x) + (from.y - to.y) * (from.y - to.y)).squareRoot()
                    guard distance <= request.maxDistanceMetres else { continue }
                    if try LinkRecord.joining(sql, from.id, to.id) != nil {
                        alreadyLinked += 1
                    } else if walls.block(fromX: from.x, fromY: from.y, toX: to.x, toY: to.y) {
                        blocked += 1
                    } else {
                        let record = LinkRecord(
                            NewLink(from: from.id, to: to.id, kind: .walk), distanceMetres: max(distance, Self.shortestLinkMetres)
                        )
                        created.append(try record.inserted(sql))
                    }
                }
            }
            return AutolinkResult(roomID: roomID, created: created, alreadyLinked: alreadyLinked, blockedByWalls: blocked, walls: walls.count)
        }
    }
}
