import Foundation
import Hummingbird
import HummingbirdTesting
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `POST /v1/locate`: one scan in, the position scannerd would compute out.
@Suite struct LocateTests {
    static func reading(_ ap: UInt64, rssi: Int, scan: Int = 0) -> ScanContract.Measurement {
        ScanContract.Measurement(
            time: Readings.start.addingTimeInterval(Double(scan)), rssi: rssi, scan: scan,
            observation: .wifi(WiFiObservation(bssid: BSSID(rawValue: 0x02_00_00_00_02_00 + ap), ssid: "lab", frequencyMHz: 2412))
        )
    }

    /// Surveys A (0,0) loud on access point 1 and B (3,4) loud on access point 2, three scans each.
    static func survey(_ client: some TestClientProtocol, _ world: PositioningWorld) async throws {
        for (location, loud) in [(world.a, UInt64(1)), (world.b, UInt64(2))] {
            let on = try await client.startSurvey(at: location.id, stopAfter: .scans(3))
            let readings = (0..<3).flatMap { scan in
                [reading(loud, rssi: -40 - scan, scan: scan), reading(3 - loud, rssi: -80 + scan, scan: scan)]
            }
            _ = try await client.uploadNew(Readings.batch(readings, revision: on.revision))
        }
    }

    @Test func aScanIsLocatedAsTheScannerWouldLocateItAndNothingIsStored() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            let scan = [Self.reading(1, rssi: -42), Self.reading(2, rssi: -79)]
            let early = try await client.send(.post, "/v1/locate", json: LocateRequest(measurements: scan))
            #expect(early.status == .conflict, "no radio map yet")

            try await Self.survey(client, world)
            let result = try await client.expect(.ok, .post, "/v1/locate", json: LocateRequest(measurements: scan), as: LocateResult.self)
            let map = try await client.expect(.ok, get: "/v1/radiomap", as: RadioMap.self)
            var locator = Locator(map: map)
            let located = locator.locate(ScanReadings(scan), at: Readings.start)
            let expected = try #require(located)
            #expect(result.floor == expected.floorID && result.x == expected.x && result.y == expected.y)
            #expect(result.nearestLocationID == expected.nearestLocationID && result.roomID == expected.roomID)
            #expect(result.method == expected.method && result.accuracyMetres == expected.accuracyMetres)
            #expect(result.positionID == nil)
            #expect(try await client.expect(.ok, get: "/v1/positions", as: Page<Position>.self).items.isEmpty, "nothing stored")

            let stored = try await client.expect(
                .ok, .post, "/v1/locate?store=true", json: LocateRequest(scannerID: .default, measurements: scan), as: LocateResult.self
            )
            let positions = try await client.expect(.ok, get: "/v1/positions", as: Page<Position>.self).items
            #expect(positions.map(\.id) == [try #require(stored.positionID)])
            #expect(positions.first?.nearestLocationID == expected.nearestLocationID && positions.first?.x == expected.x)
        }
    }

    /// A booth drawn round where the scan locates: the answer and the stored position name the
    /// booth, not the room of the nearest surveyed location the locator names.
    @Test func aScanInsideAnOutlineIsInThatRoom() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await Self.survey(client, world)
            let scan = [Self.reading(1, rssi: -42), Self.reading(2, rssi: -79)]
            let plain = try await client.expect(.ok, .post, "/v1/locate", json: LocateRequest(measurements: scan), as: LocateResult.self)
            #expect(plain.roomID == world.rooms[0].id)
            let booth = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: plain.floor, name: "Booth"), as: Room.self)
            let (x, y) = (plain.x, plain.y)
            let outline = RoomOutline(outline: [[x - 1, y - 1], [x + 1, y - 1], [x + 1, y + 1], [x - 1, y + 1]])
            _ = try await client.expect(.ok, .put, "/v1/rooms/\(booth.id)/outline", json: outline, as: Room.self)

            let located = try await client.expect(.ok, .post, "/v1/locate", json: LocateRequest(measurements: scan), as: LocateResult.self)
            #expect(located.roomID == booth.id && located.nearestLocationID == plain.nearestLocationID)
            let stored = try await client.expect(
                .ok, .post, "/v1/locate?store=true", json: LocateRequest(scannerID: .default, measurements: scan), as: LocateResult.self
            )
            #expect(stored.roomID == booth.id)
            #expect(try await client.expect(.ok, get: "/v1/positions", as: Page<Position>.self).items.map(\.roomID) == [booth.id])
        }
    }

    @Test func badScansAndStoringWithoutAScannerAreRefused() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await Self.survey(client, world)
            let scan = [Self.reading(1, rssi: -42)]
            let refused: [(String, String, String?)] = [
                ("/v1/locate", #"{"measurements": []}"#, "measurements"),
                ("/v1/locate", #"{"measurements": [{"kind": "wifi", "bssid": "02:00:00:00:02:01", "frequencyMHz": 2412, "rssi": 99, "time": "2026-01-01T00:00:00Z"}]}"#, "measurements[0].rssi"),
                ("/v1/locate?store=yes", #"{"measurements": []}"#, "store"),
            ]
            for (uri, body, field) in refused {
                let response = try await client.send(.post, uri, text: body)
                #expect(response.status == .unprocessableContent, "\(body)")
                #expect(try errorBody(response).field == field, "\(body)")
            }
            #expect(try await client.send(.post, "/v1/locate", text: "{").status == .badRequest)
            let noScanner = try await client.send(.post, "/v1/locate?store=true", json: LocateRequest(measurements: scan))
            #expect(try errorBody(noScanner).field == "scannerID")
            let unheard = [ScanContract.Measurement(
                time: Readings.start, rssi: -50,
                observation: .wifi(WiFiObservation(bssid: BSSID(rawValue: 0x0A_00_00_00_00_09), ssid: "elsewhere", frequencyMHz: 2412))
            )]
            #expect(try await client.send(.post, "/v1/locate", json: LocateRequest(measurements: unheard)).status == .unprocessableContent)
            #expect(try await client.expect(.ok, get: "/v1/positions", as: Page<Position>.self).items.isEmpty)
        }
    }

    @Test func readersLocateButOnlyScannersAndAdminsStore() async throws {
        let database = try AppDatabase.inMemory()
        let reader = try await issueToken(database, .reader)
        let scanner = try await issueToken(database, .scanner, scannerID: .default)
        try await makeApp(database).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await Self.survey(client, world)
            let scan = LocateRequest(scannerID: .default, measurements: [Self.reading(1, rssi: -42), Self.reading(2, rssi: -79)])
            func post(_ uri: String, _ token: String) async throws -> HTTPResponse.Status {
                var headers = bearer(token)
                headers[.contentType] = "application/json"
                return try await client.execute(uri: uri, method: .post, headers: headers, body: jsonBody(scan)).status
            }
            #expect(try await post("/v1/locate", reader) == .ok)
            #expect(try await post("/v1/locate?store=true", reader) == .forbidden)
            #expect(try await post("/v1/locate?store=true", scanner) == .ok)
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: try ScannerID("pi-2")), as: ScanContract.Scanner.self)
            let other = try await issueToken(database, .scanner, scannerID: try ScannerID("pi-2"))
            #expect(try await post("/v1/locate?store=true", other) == .forbidden, "a scanner stores only its own positions")
        }
    }
}
