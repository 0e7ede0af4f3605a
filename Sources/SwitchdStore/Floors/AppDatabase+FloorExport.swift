import ScanContract

/// One floor's survey with latitude and longitude on every location and beacon, read in one
/// snapshot, for exports.
package struct FloorExport: Sendable {
    package var floor: Floor
    package var rooms: [Room]
    /// The floor's locations, and the far ends of links that leave the floor.
    package var locations: [Location]
    package var beacons: [Beacon]
    /// Links with at least one end on the floor.
    package var links: [Link]
    /// The outline of each outlined room, as `[longitude, latitude]` corners (a corner the fit
    /// cannot place leaves its room out).
    package var outlineCoordinates: [Int64: [[Double]]] = [:]
}

extension AppDatabase {
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown floor; ``StoreError/conflict(_:)``
    ///   when the floor is not geo-referenced (an export without coordinates would say nothing).
    package func floorExport(_ floorID: Int64) async throws -> FloorExport {
        try await readStatements { sql in
            let floor = try FloorRecord.fetchFloor(sql, id: floorID)
            let frames = try GeoFrames.load(sql)
            guard frames.fit(ofFloor: floorID) != nil else {
                throw StoreError.conflict("floor \(floorID) is not geo-referenced: PUT /v1/floors/\(floorID)/georeference first")
            }
            let rooms = try RoomRecord.fetchRooms(sql, filter: "floor_id = ?", values: [.integer(floorID)])
            let everywhere = Dictionary(uniqueKeysWithValues: try LocationRecord.fetchLocations(sql).map { ($0.id, frames.place($0)) })
            let links = try LinkRecord.fetchLinks(sql).filter { everywhere[$0.from]?.floorID == floorID || everywhere[$0.to]?.floorID == floorID }
            let wanted = Set(links.flatMap { [$0.from, $0.to] })
            let locations = everywhere.values.filter { $0.floorID == floorID || wanted.contains($0.id) }.sorted { $0.id < $1.id }
            let beacons = try BeaconRecord.fetchBeacons(sql, onFloor: floorID).map(frames.place)
            var outlines: [Int64: [[Double]]] = [:]
            for room in rooms {
                let corners = room.outline?.compactMap { corner in
                    frames.coordinates(floorID: floorID, x: corner[0], y: corner[1]).map { [$0.longitude, $0.latitude] }
                }
                if let corners, corners.count == room.outline?.count { outlines[room.id] = corners }
            }
            return FloorExport(floor: floor, rooms: rooms, locations: locations, beacons: beacons, links: links, outlineCoordinates: outlines)
        }
    }
}
