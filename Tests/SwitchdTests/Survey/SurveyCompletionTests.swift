import Foundation
import Hummingbird
import HummingbirdTesting
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Moving a location, searching rooms, a room's doors, autolink and the emitter listing.
@Suite struct SurveyCompletionTests {
    @Test func aLocationMovesAndIsRenamedAndKeepsItsFingerprint() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let other = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: spot.floor.id, name: "Store"), as: Room.self)
            let on = try await client.startSurvey(at: spot.location.id)
            _ = try await client.uploadNew(Readings.batch([Readings.wifi(), Readings.wifi(scan: 1)], revision: on.revision))

            let moved = try await client.expect(
                .ok, .patch, "/v1/locations/\(spot.location.id)", json: LocationPatch(roomID: other.id, name: "By the door", x: 7), as: Location.self
            )
            #expect(moved == Location(id: spot.location.id, roomID: other.id, floorID: spot.floor.id, name: "By the door", x: 7, y: 3))
            let fingerprint = try await client.expect(.ok, get: "/v1/measurements?location=\(spot.location.id)", as: Page<StoredMeasurement>.self)
            #expect(fingerprint.items.count == 2, "the readings stay with the location")
            #expect(try await client.expect(.ok, get: "/v1/measurements?room=\(other.id)", as: Page<StoredMeasurement>.self).items.count == 2)

            let elsewhere = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Roof"), as: Floor.self)
            let roof = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: elsewhere.id, name: "Roof"), as: Room.self)
            for (body, status, field) in [
                (#"{"roomID": \#(roof.id)}"#, HTTPResponse.Status.unprocessableContent, "roomID"),
                (#"{"roomID": 999}"#, .unprocessableContent, "roomID"),
                (#"{"x": 1e9}"#, .unprocessableContent, "x"),
                (#"{"name": null}"#, .unprocessableContent, "name"),
                (#"{"name": ""}"#, .unprocessableContent, "name"),
            ] {
                let response = try await client.send(.patch, "/v1/locations/\(spot.location.id)", text: body)
                #expect(response.status == status, "\(body)")
                #expect(try errorBody(response).field == field, "\(body)")
            }
            #expect(try await client.send(.patch, "/v1/locations/999", text: #"{"x": 1}"#).status == .notFound)
            #expect(try await client.expect(.ok, get: "/v1/locations/\(spot.location.id)", as: Location.self) == moved)
        }
    }

    @Test func roomsAreFoundByNameWhateverTheCaseAndAccents() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            var ids: [String: Int64] = [:]
            for name in ["Café Étoile", "Salle des fêtes", "ÉTUDE 3", "Lobby"] {
                ids[name] = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: floor.id, name: name), as: Room.self).id
            }
            func search(_ query: String) async throws -> [String] {
                let plain = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
                let encoded = query.addingPercentEncoding(withAllowedCharacters: plain) ?? query
                return try await client.expect(.ok, get: "/v1/rooms?q=\(encoded)", as: [Room].self).map(\.name)
            }
            #expect(try await search("cafe") == ["Café Étoile"])
            #expect(try await search("ETOILE") == ["Café Étoile"])
            #expect(try await search("étu") == ["ÉTUDE 3"], "a prefix match")
            #expect(try await search("e") == ["ÉTUDE 3", "Café Étoile", "Salle des fêtes"], "names starting with it first, then by ID")
            #expect(try await search("nowhere") == [])
            #expect(try await client.get("/v1/rooms?q=").status == .unprocessableContent)
            #expect(try await client.get("/v1/rooms?q=cafe&floor=999").status == .notFound)
        }
    }

    @Test func foldingDropsCaseAndAccentsOnly() {
        #expect(NameFolding.fold("Salle Élysée") == "salle elysee")
        #expect(NameFolding.fold("ÅNGSTRÖM") == "angstrom")
        #expect(NameFolding.fold("Ｒｏｏｍ") == "room", "full-width letters fold by compatibility")
        #expect(NameFolding.fold("Øst") == "øst", "a letter that is not base + mark stays")
    }

    @Test func aRoomsDoorsAreItsLinksToOtherRooms() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            let hall2 = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: world.ground.id, name: "Side"), as: Room.self)
            let side = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: hall2.id, x: 6, y: 4), as: Location.self)
            _ = try await client.expect(.created, .post, "/v1/links", json: NewLink(from: world.a.id, to: world.b.id, kind: .walk), as: Link.self)
            let door = try await client.expect(.created, .post, "/v1/links", json: NewLink(from: side.id, to: world.b.id, kind: .walk), as: Link.self)
            let stairs = try await client.expect(.created, .post, "/v1/links", json: NewLink(from: world.b.id, to: world.c.id, kind: .stairs), as: Link.self)

            let doors = try await client.expect(.ok, get: "/v1/rooms/\(world.rooms[0].id)/doors", as: [RoomDoor].self)
            #expect(doors == [
                RoomDoor(locationID: world.b.id, otherLocationID: side.id, otherRoomID: hall2.id, otherFloorID: world.ground.id, link: door),
                RoomDoor(locationID: world.b.id, otherLocationID: world.c.id, otherRoomID: world.rooms[1].id, otherFloorID: world.first.id, link: stairs),
            ])
            #expect(try await client.expect(.ok, get: "/v1/rooms/\(hall2.id)/doors", as: [RoomDoor].self).map(\.otherLocationID) == [world.b.id])
            #expect(try await client.get("/v1/rooms/999/doors").status == .notFound)
        }
    }

    /// A room 10 m × 4 m with a wall at x = 5 from y = 0 to y = 3 (a gap above it), drawn in an SVG
    /// plan at 10 pixels per metre.
    static let plan = """
        <svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">
          <rect x="0" y="0" width="200" height="100" fill="white"/>
          <g id="walls"><line x1="50" y1="0" x2="50" y2="30" stroke="black"/></g>
          <line x1="0" y1="35" x2="200" y2="35" stroke="grey" class="furniture"/>
        </svg>
        """

    @Test func autolinkJoinsNeighboursButNeverThroughAWall() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let floorID = spot.floor.id
            _ = try await client.execute(
                uri: "/v1/floors/\(floorID)/plan", method: .put, headers: [.contentType: "image/svg+xml"], body: ByteBuffer(string: Self.plan)
            )
            _ = try await client.expect(
                .ok, .patch, "/v1/floors/\(floorID)", json: FloorPatch(scale: .set(PlanScale(metresPerPixel: 0.1, originX: 0, originY: 0))), as: Floor.self
            )
            // spot.location is (2.5, 3); add (7.5, 2) across the wall, (2.5, 3.5) and (7.5, 3.5) by the gap
            // (the walk between those two runs along a line of furniture, which is no wall).
            var ids: [Int64] = [spot.location.id]
            for (x, y) in [(7.5, 2.0), (2.5, 3.5), (7.5, 3.5)] {
                ids.append(try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: spot.room.id, x: x, y: y), as: Location.self).id)
            }
            let result = try await client.expect(.ok, .post, "/v1/rooms/\(spot.room.id)/autolink", json: AutolinkRequest(maxDistanceMetres: 5.1), as: AutolinkResult.self)
            #expect(result.walls == 1, "only the element inside id=walls is a wall")
            let pairs = Set(result.created.map { Set([$0.from, $0.to]) })
            #expect(pairs.contains([ids[0], ids[2]]), "0.5 m apart, same side")
            #expect(pairs.contains([ids[2], ids[3]]), "through the gap above the wall")
            #expect(!pairs.contains([ids[0], ids[1]]), "the wall stands between (2.5,3) and (7.5,2)")
            #expect(result.blockedByWalls == 1 && result.created.count == 4)
            #expect(result.created.allSatisfy { $0.kind == .walk })

            let again = try await client.expect(.ok, .post, "/v1/rooms/\(spot.room.id)/autolink", json: AutolinkRequest(maxDistanceMetres: 5.1), as: AutolinkResult.self)
            #expect(again.created.isEmpty && again.alreadyLinked == result.created.count, "idempotent")
            #expect(try await client.expect(.ok, get: "/v1/links", as: [Link].self).count == result.created.count)

            #expect(try await client.send(.post, "/v1/rooms/\(spot.room.id)/autolink", json: AutolinkRequest(maxDistanceMetres: 0)).status == .unprocessableContent)
            #expect(try await client.send(.post, "/v1/rooms/999/autolink", json: AutolinkRequest(maxDistanceMetres: 3)).status == .notFound)
        }
    }

    @Test func svgWallsAreReadFromWallElementsOnly() throws {
        let budget = SVGBudget.standard(maxBytes: 1 << 20)
        let walls = try SVGWalls.segments(in: Data(Self.plan.utf8), scale: PlanScale(metresPerPixel: 0.1, originX: 0, originY: 0), budget: budget)
        #expect(walls == [WallSegmentLiteral.wall(5, 0, 5, 3)])
        let shapes = """
            <svg xmlns="http://www.w3.org/2000/svg"><polygon class="Wall" points="0,0 10,0 10,10"/><rect id="outer-wall" x="0" y="0" width="10" height="20"/></svg>
            """
        #expect(try SVGWalls.segments(in: Data(shapes.utf8), scale: PlanScale(metresPerPixel: 1, originX: 0, originY: 0), budget: budget).count == 3 + 4)
    }

    @Test func emittersListEveryAccessPointAndBeaconHeardAndFilterTheFeed() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id)
            _ = try await client.uploadNew(Readings.batch(
                [Readings.wifi(rssi: -60), Readings.wifi(scan: 1, rssi: -50, at: 5), Readings.ble(rssi: -70, at: 2)], revision: on.revision
            ))
            let page = try await client.expect(.ok, get: "/v1/emitters", as: Page<EmitterSummary>.self)
            #expect(page.items.map(\.emitter) == ["ap:02:00:00:00:01:00", "beacon:f7826da6-4fa2-4e98-8024-bc5b71e0893e/1/2"])
            let ap = page.items[0]
            #expect(ap.readings == 2 && ap.meanRSSI == -55 && ap.maxRSSI == -50 && ap.ssid == "floorscan-lab")
            #expect(ap.firstSeen == Readings.start && ap.lastSeen == Readings.start.addingTimeInterval(5))
            #expect(ap.strongestAt == EmitterPlace(locationID: spot.location.id, roomID: spot.room.id, floorID: spot.floor.id, meanRSSI: -55, readings: 2))
            #expect(page.items[1].major == 1 && page.items[1].minor == 2 && page.items[1].beaconID == nil)

            let first = try await client.expect(.ok, get: "/v1/emitters?limit=1", as: Page<EmitterSummary>.self)
            let cursor = try #require(first.nextCursor)
            let second = try await client.expect(.ok, get: "/v1/emitters?limit=1&cursor=\(cursor)", as: Page<EmitterSummary>.self)
            #expect(first.items + second.items == page.items && second.nextCursor == nil)
            // A cursor is an emitter key: any text up to 128 characters is a place in key order.
            #expect(try await client.expect(.ok, get: "/v1/emitters?cursor=zzz", as: Page<EmitterSummary>.self).items.isEmpty)
            #expect(try await client.get("/v1/emitters?cursor=\(String(repeating: "x", count: 129))").status == .unprocessableContent)

            let ofAP = try await client.expect(.ok, get: "/v1/measurements?emitter=ap:02:00:00:00:01:00", as: Page<StoredMeasurement>.self)
            #expect(ofAP.items.map(\.measurement.rssi) == [-60, -50])
            let ofBeacon = try await client.expect(
                .ok, get: "/v1/measurements?emitter=beacon:f7826da6-4fa2-4e98-8024-bc5b71e0893e/1/2", as: Page<StoredMeasurement>.self
            )
            #expect(ofBeacon.items.map(\.measurement.kind) == [.ble])
            let ofAddress = try await client.expect(.ok, get: "/v1/measurements?emitter=c0:ff:ee:00:00:01", as: Page<StoredMeasurement>.self)
            #expect(ofAddress.items.map(\.measurement.kind) == [.ble], "a bare MAC matches the BLE device address")
            #expect(try await client.get("/v1/measurements?emitter=ap:zz").status == .unprocessableContent)
        }
    }
}

/// Shorthand for expected walls.
enum WallSegmentLiteral {
    static func wall(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> WallSegment {
        WallSegment(x1: x1, y1: y1, x2: x2, y2: y2)
    }
}
