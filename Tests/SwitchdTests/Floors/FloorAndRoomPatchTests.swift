import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `PATCH /v1/floors/{id}` (name, building, level, the plan's scale) and `PATCH /v1/rooms/{id}` (rename).
@Suite struct FloorAndRoomPatchTests {
    @Test func theScaleIsStoredShownAndCleared() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            let scale = PlanScale(metresPerPixel: 0.025, originX: 12, originY: 30.5)
            let scaled = try await client.expect(.ok, .patch, "/v1/floors/\(floor.id)", json: FloorPatch(scale: .set(scale)), as: Floor.self)
            #expect(scaled.scale == scale)
            #expect(scaled.name == "Ground" && scaled.level == 0, "fields left out keep their value")
            #expect(try await client.expect(.ok, get: "/v1/floors", as: [Floor].self) == [scaled])

            let renamed = try await client.expect(.ok, .patch, "/v1/floors/\(floor.id)", json: FloorPatch(name: "Lobby", level: 2), as: Floor.self)
            #expect(renamed.scale == scale && renamed.name == "Lobby" && renamed.level == 2)

            let cleared = try await client.send(.patch, "/v1/floors/\(floor.id)", text: #"{"scale": null}"#)
            #expect(try decoded(Floor.self, cleared).scale == nil)
        }
    }

    @Test func aFloorWithoutPlanOrScaleKeepsItsV1Shape() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            _ = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            let listed = try await client.get("/v1/floors")
            let object = try #require((try JSONSerialization.jsonObject(with: Data(listed.body.readableBytesView)) as? [[String: Any]])?.first)
            #expect(Set(object.keys) == ["id", "building", "name", "level"])
        }
    }

    @Test func aBadScaleOrNameIs422AndChangesNothing() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            let cases: [(body: String, field: String)] = [
                (#"{"scale": {"metresPerPixel": 0, "originX": 0, "originY": 0}}"#, "scale.metresPerPixel"),
                (#"{"scale": {"metresPerPixel": 0.1, "originX": 1e300, "originY": 0}}"#, "scale.originX"),
                (#"{"scale": {"metresPerPixel": 0.1, "originY": 0}}"#, "scale.originX"),
                (#"{"name": "  "}"#, "name"),
            ]
            for (body, field) in cases {
                let response = try await client.send(.patch, "/v1/floors/\(floor.id)", text: body)
                #expect(response.status == .unprocessableContent, "\(body)")
                #expect(try errorBody(response).field == field, "\(body)")
            }
            #expect(try await client.expect(.ok, get: "/v1/floors/\(floor.id)", as: Floor.self) == floor)
            #expect(try await client.send(.patch, "/v1/floors/999", text: #"{"name": "x"}"#).status == .notFound)
        }
    }

    @Test func aRoomIsRenamed() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let renamed = try await client.expect(.ok, .patch, "/v1/rooms/\(spot.room.id)", json: RoomPatch(name: "Kitchen"), as: Room.self)
            #expect(renamed == Room(id: spot.room.id, floorID: spot.floor.id, name: "Kitchen"))
            #expect(try await client.expect(.ok, get: "/v1/rooms/\(spot.room.id)", as: Room.self) == renamed)
            let empty = try await client.send(.patch, "/v1/rooms/\(spot.room.id)", text: #"{"name": ""}"#)
            #expect(empty.status == .unprocessableContent)
            #expect(try errorBody(empty).field == "name")
            #expect(try await client.send(.patch, "/v1/rooms/999", json: RoomPatch(name: "x")).status == .notFound)
        }
    }
}
