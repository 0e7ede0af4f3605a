import Foundation
import HummingbirdTesting
import ScanContract
@testable import switchd
@testable import SwitchdStore

/// Two floors of building "main" (levels 0 and 1) and one of "annex", made through the API in a
/// fresh database, so IDs are predictable: floors 1 (ground), 2 (first), 3 (annex); rooms 1, 2, 3
/// one per floor; locations 1 A (0,0) and 2 B (3,4) on the ground floor, 3 C (3,4) and 4 D (10,4)
/// on the first, 5 E (0,0) in the annex.
struct PositioningWorld {
    var ground: Floor
    var first: Floor
    var annex: Floor
    var rooms: [Room]
    var a: Location
    var b: Location
    var c: Location
    var d: Location
    var e: Location

    static func make(_ client: some TestClientProtocol) async throws -> PositioningWorld {
        let ground = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground", level: 0), as: Floor.self)
        let first = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "First", level: 1), as: Floor.self)
        let annex = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(building: "annex", name: "Annex", level: 0), as: Floor.self)
        var rooms: [Room] = []
        for floor in [ground, first, annex] {
            rooms.append(try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: floor.id, name: "Hall \(floor.id)"), as: Room.self))
        }
        func location(_ room: Room, _ name: String, _ x: Double, _ y: Double) async throws -> Location {
            try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: room.id, name: name, x: x, y: y), as: Location.self)
        }
        return PositioningWorld(
            ground: ground, first: first, annex: annex, rooms: rooms,
            a: try await location(rooms[0], "A", 0, 0), b: try await location(rooms[0], "B", 3, 4),
            c: try await location(rooms[1], "C", 3, 4), d: try await location(rooms[1], "D", 10, 4),
            e: try await location(rooms[2], "E", 0, 0)
        )
    }
}

enum Beacons {
    static func new(floorID: Int64, minor: UInt16 = 1, x: Double = 1, y: Double = 2, measuredPower: Int = -59) -> NewBeacon {
        NewBeacon(uuid: Readings.beaconUUID, major: 1, minor: minor, floorID: floorID, x: x, y: y, measuredPower: measuredPower)
    }
}

enum Positions {
    static func new(
        scanner: ScannerID = .default, floor: Floor, x: Double = 1, y: Double = 1, at offset: TimeInterval = 0,
        roomID: Int64? = nil, nearestLocationID: Int64? = nil
    ) -> NewPosition {
        NewPosition(
            scannerID: scanner, time: Readings.start.addingTimeInterval(offset), building: floor.building, floor: floor.id,
            x: x, y: y, roomID: roomID, nearestLocationID: nearestLocationID, accuracyMetres: 2.5, method: "wifi-knn"
        )
    }
}
