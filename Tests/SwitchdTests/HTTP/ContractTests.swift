import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// The v1 JSON contract: each endpoint's happy path and the shape of its answer.
@Suite struct ContractTests {
    @Test func healthAnswersOK() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let response = try await client.get("/healthz")
            #expect(response.status == .ok)
            #expect(try decoded([String: String].self, response) == ["status": "ok"])
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        }
    }

    @Test func scannersCreateListShow() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            #expect(try await client.expect(.ok, get: "/v1/scanners", as: Page<ScanContract.Scanner>.self).items.map { [$0.id.rawValue, $0.name] } == [["default", "default"]])

            let pi = try ScannerID("pi-4.lab_2")
            let created = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: pi, name: "Lab Pi"), as: ScanContract.Scanner.self)
            #expect(created == ScanContract.Scanner(id: pi, name: "Lab Pi"))
            let shown = try await client.expect(.ok, get: "/v1/scanners/pi-4.lab_2", as: ScanContract.Scanner.self)
            #expect(shown == ScanContract.Scanner(id: pi, name: "Lab Pi", health: ScannerHealth(online: false, mode: "off")), "with its health")
            #expect(try await client.expect(.ok, get: "/v1/scanners", as: Page<ScanContract.Scanner>.self).items.map(\.id) == [.default, pi])

            let again = try await client.send(.post, "/v1/scanners", json: NewScanner(id: pi))
            #expect(again.status == .conflict)
            #expect(try errorBody(again).code == "conflict")

            // A new scanner's switch: off, revision 1.
            let scanSwitch = try await client.expect(.ok, get: "/v1/scanners/pi-4.lab_2/switch", as: ScanSwitch.self)
            #expect(scanSwitch.scannerID == pi && scanSwitch.revision == 1 && !scanSwitch.scanning && scanSwitch.mode == .locate)

            let named = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: try ScannerID("b")), as: ScanContract.Scanner.self)
            #expect(named.name == "b")
        }
    }

    @Test func surveyCreateListShowDelete() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            #expect(floor.building == "main" && floor.level == 0 && floor.name == "Ground")
            let upper = try await client.expect(
                .created, .post, "/v1/floors", json: NewFloor(building: "B", name: "First", level: 1), as: Floor.self
            )
            #expect(try await client.expect(.ok, get: "/v1/floors", as: [Floor].self) == [upper, floor].sorted { $0.building < $1.building })
            #expect(try await client.expect(.ok, get: "/v1/floors/\(floor.id)", as: Floor.self) == floor)

            let room = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: floor.id, name: "Lab"), as: Room.self)
            #expect(room.floorID == floor.id && room.name == "Lab")
            let otherRoom = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: upper.id, name: "Hall"), as: Room.self)
            #expect(try await client.expect(.ok, get: "/v1/rooms?floor=\(floor.id)", as: [Room].self) == [room])
            #expect(try await client.expect(.ok, get: "/v1/rooms", as: [Room].self) == [room, otherRoom])
            #expect(try await client.expect(.ok, get: "/v1/rooms/\(room.id)", as: Room.self) == room)

            let spot = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: room.id, x: 2.5, y: 3), as: Location.self)
            #expect(spot == Location(id: spot.id, roomID: room.id, floorID: floor.id, name: "2.5,3", x: 2.5, y: 3))
            let door = try await client.expect(
                .created, .post, "/v1/locations", json: NewLocation(roomID: otherRoom.id, name: "Door", x: 0, y: 1), as: Location.self
            )
            #expect(try await client.expect(.ok, get: "/v1/locations", as: [Location].self) == [spot, door])
            #expect(try await client.expect(.ok, get: "/v1/locations?room=\(room.id)", as: [Location].self) == [spot])
            #expect(try await client.expect(.ok, get: "/v1/locations?floor=\(upper.id)", as: [Location].self) == [door])
            #expect(try await client.expect(.ok, get: "/v1/locations/\(door.id)", as: Location.self) == door)

            #expect(try await client.execute(uri: "/v1/locations/\(door.id)", method: .delete).status == .noContent)
            #expect(try await client.get("/v1/locations/\(door.id)").status == .notFound)
            #expect(try await client.execute(uri: "/v1/rooms/\(otherRoom.id)", method: .delete).status == .noContent)
            #expect(try await client.get("/v1/rooms/\(otherRoom.id)").status == .notFound)

            // Deleting the floor takes its rooms and locations with it.
            #expect(try await client.execute(uri: "/v1/floors/\(floor.id)", method: .delete).status == .noContent)
            #expect(try await client.get("/v1/rooms/\(room.id)").status == .notFound)
            #expect(try await client.get("/v1/locations/\(spot.id)").status == .notFound)
            #expect(try await client.expect(.ok, get: "/v1/floors", as: [Floor].self) == [upper])
        }
    }

    @Test func unknownRoutesAndMethodsAnswerJSON() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let missing = try await client.get("/v2/nothing")
            #expect(missing.status == .notFound)
            #expect(try errorBody(missing).code == "not_found")

            let wrongMethod = try await client.execute(uri: "/v1/floors", method: .put)
            #expect(wrongMethod.status == .methodNotAllowed)
            #expect(wrongMethod.headers[.allow] == "GET, POST")
            #expect(try errorBody(wrongMethod).code == "method_not_allowed")
        }
    }

    /// HEAD, OPTIONS, TRACE and QUERY on a path switchd serves are told which methods it takes,
    /// as any other wrong method is (they were answered 404, as if the path did not exist; QUERY
    /// until schemathesis's unsupported_method check asked, issue 36).
    @Test func headOptionsTraceAndQueryAnswer405WithAllow() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            for (path, allow) in [("/v1/floors", "GET, POST"), ("/v1/floors/1", "GET, PATCH, DELETE"), ("/healthz", "GET")] {
                for method in [HTTPRequest.Method.head, .options, .trace, HTTPRequest.Method("QUERY")!] {
                    let response = try await client.execute(uri: path, method: method)
                    #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(response.headers[.allow] == allow, "\(method) \(path)")
                }
            }
        }
    }

    @Test func switchJSONShape() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let response = try await client.send(.patch, "/v1/scanners/default/switch", text: """
                {"scanning": true, "mode": "survey", "locationID": \(spot.location.id), "stopAfter": {"scans": 3}}
                """)
            #expect(response.status == .ok)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            #expect(Set(object.keys) == [
                "scannerID", "scanning", "mode", "roomID", "locationID", "storeData", "stopAfter", "revision", "changedAt", "scansCompleted",
            ])
            #expect(object["roomID"] as? Int == Int(spot.room.id))
            #expect((object["stopAfter"] as? [String: Int]) == ["scans": 3])
            let changedAt = try #require(object["changedAt"] as? String)
            #expect(changedAt.hasSuffix("Z") && changedAt.contains("."))
        }
    }
}
