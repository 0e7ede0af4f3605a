import Foundation
import ScanContract

extension AppDatabase {
    /// Rooms whose name holds `query`, case and accents ignored (``NameFolding``): those whose
    /// name starts with it first, then the rest, each by ID; only `floorID`'s when given.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `floorID` names no floor.
    package func rooms(named query: String, onFloor floorID: Int64?) async throws -> [Room] {
        let folded = NameFolding.fold(query)
        let rooms = try await rooms(onFloor: floorID)
        let matches = rooms.compactMap { room -> (prefix: Bool, room: Room)? in
            let name = NameFolding.fold(room.name)
            guard let range = name.range(of: folded) else { return nil }
            return (range.lowerBound == name.startIndex, room)
        }
        return matches.filter(\.prefix).map(\.room) + matches.filter { !$0.prefix }.map(\.room)
    }

    /// The room's doors: every link from one of its locations to a location in another room.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown room.
    package func doors(ofRoom roomID: Int64) async throws -> [RoomDoor] {
        try await readStatements { sql in
            guard try RoomRecord.fetchRoom(sql, id: roomID) != nil else { throw StoreError.notFound("no room \(roomID)") }
            let locations = Dictionary(uniqueKeysWithValues: try LocationRecord.fetchLocations(sql).map { ($0.id, $0) })
            return try LinkRecord.fetchLinks(sql).compactMap { link -> RoomDoor? in
                guard let from = locations[link.from], let to = locations[link.to], from.roomID != to.roomID else { return nil }
                let (inside, outside) = from.roomID == roomID ? (from, to) : (to, from)
                guard inside.roomID == roomID else { return nil }
                return RoomDoor(
                    locationID: inside.id, otherLocationID: outside.id, otherRoomID: outside.roomID, otherFloorID: outside.floorID, link: link
                )
            }
        }
    }
}
