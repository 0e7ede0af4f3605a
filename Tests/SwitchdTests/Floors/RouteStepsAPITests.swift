import Foundation
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `POST /v1/routes` answers with turn-by-turn steps, over real HTTP on loopback.
@Suite struct RouteStepsAPITests {
    /// An L-shaped corridor on one floor: east 10 m, then 6 m down the plan (a right turn), then
    /// the lift up to a gallery.
    @Test func stepsTurnAndClimbAlongTheLinks() async throws {
        try await makeApp(try .inMemory()).test(.live) { client in
            let ground = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground", level: 0), as: Floor.self)
            let upper = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Upper", level: 1), as: Floor.self)
            let hall = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: ground.id, name: "Hall"), as: Room.self)
            let gallery = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: upper.id, name: "Gallery"), as: Room.self)
            var spots: [Location] = []
            for (room, x, y) in [(hall, 0.0, 0.0), (hall, 4.0, 0.0), (hall, 10.0, 0.0), (hall, 10.0, 6.0), (gallery, 10.0, 6.0)] {
                spots.append(try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: room.id, x: x, y: y), as: Location.self))
            }
            for (index, kind) in [LinkKind.walk, .walk, .walk, .lift].enumerated() {
                _ = try await client.expect(.created, .post, "/v1/links", json: NewLink(from: spots[index].id, to: spots[index + 1].id, kind: kind), as: Link.self)
            }
            let route = try await client.expect(.ok, .post, "/v1/routes", json: RouteRequest(from: spots[0].id, to: spots[4].id), as: Route.self)
            #expect(route.steps.map(\.instruction) == [
                "Go 10 m", "Turn right and go 6 m to the lift", "Take the lift up one floor", "Arrive at Gallery",
            ])
            #expect(route.steps.map(\.turn) == [nil, .right, nil, nil])
            #expect(route.steps.map(\.floorID) == [ground.id, ground.id, upper.id, upper.id])
            #expect(route.steps.map(\.distanceMetres).reduce(0, +) == route.distanceMetres)
        }
    }
}
