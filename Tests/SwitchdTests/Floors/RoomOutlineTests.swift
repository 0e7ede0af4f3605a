import Clocks
import Foundation
import Hummingbird
import HummingbirdTesting
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `PUT/GET/DELETE /v1/rooms/{id}/outline`: a round trip, the room answered with its outline,
/// 422 naming each problem with nothing lost, an idempotent delete, the GeoJSON export drawing
/// the outline, and a posted position's room and presence following the outline.
@Suite struct RoomOutlineTests {
    static let office: [[Double]] = [[2, 3], [5, 3], [5, 6], [2, 6]]

    @Test func anOutlineIsSetReadReplacedAndDeletedIdempotently() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let path = "/v1/rooms/\(spot.room.id)/outline"
            #expect(try await client.get(path).status == .notFound)

            let room = try await client.expect(.ok, .put, path, json: RoomOutline(outline: Self.office), as: Room.self)
            #expect(room == Room(id: spot.room.id, floorID: spot.floor.id, name: spot.room.name, outline: Self.office))
            #expect(try await client.expect(.ok, get: path, as: RoomOutline.self) == RoomOutline(outline: Self.office))
            #expect(try await client.expect(.ok, get: "/v1/rooms/\(spot.room.id)", as: Room.self) == room)
            #expect(try await client.expect(.ok, get: "/v1/rooms?floor=\(spot.floor.id)", as: [Room].self) == [room])

            let triangle: [[Double]] = [[0, 0], [4, 0], [0, 4]]
            #expect(try await client.expect(.ok, .put, path, json: RoomOutline(outline: triangle), as: Room.self).outline == triangle)

            #expect(try await client.execute(uri: path, method: .delete).status == .noContent)
            #expect(try await client.execute(uri: path, method: .delete).status == .noContent, "idempotent")
            #expect(try await client.get(path).status == .notFound)
            let plain = try await client.get("/v1/rooms/\(spot.room.id)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(plain.body.readableBytesView)) as? [String: Any])
            #expect(Set(object.keys) == ["id", "floorID", "name"], "a room without an outline keeps its v1 shape")

            #expect(try await client.execute(uri: "/v1/rooms/999/outline", method: .delete).status == .notFound)
            #expect(try await client.send(.put, "/v1/rooms/999/outline", json: RoomOutline(outline: triangle)).status == .notFound)
        }
    }

    @Test func aBadOutlineIs422NamingTheProblemAndKeepsWhatWasStored() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let path = "/v1/rooms/\(spot.room.id)/outline"
            _ = try await client.expect(.ok, .put, path, json: RoomOutline(outline: Self.office), as: Room.self)
            let corners201 = (0 ..< 201).map { "[\($0), \($0 % 2)]" }.joined(separator: ",")
            let cases: [(body: String, says: String)] = [
                (#"{"outline": [[0, 0], [1, 0]]}"#, "got 2"),
                (#"{"outline": [\#(corners201)]}"#, "got 201"),
                (#"{"outline": [[0, 0], [1, 0], [1, 1, 1]]}"#, "corner 2 must be [x, y]"),
                (#"{"outline": [[0, 0], [1, 0], [1, 1e9]]}"#, "within ±100000"),
                (#"{"outline": [[0, 0], [2, 2], [2, 0], [0, 2]]}"#, "must not intersect itself"),
                (#"{"outline": [[0, 0], [1, 0], [1, 1], [1, 0]]}"#, "same point"),
                (#"{"outline": [[0, 0], [1, 1], [2, 2]]}"#, "fold back"),
                (#"{"outline": [[0, 0], [1, "a"], [2, 2]]}"#, "outline[1][1]: must be a number"),
                (#"{"outline": "square"}"#, "must be an array"),
                (#"{}"#, "is required"),
            ]
            for (body, says) in cases {
                let response = try await client.send(.put, path, text: body)
                #expect(response.status == .unprocessableContent, "\(body)")
                let error = try errorBody(response)
                #expect(error.field?.hasPrefix("outline") == true, "\(body): \(error)")
                #expect(error.message.contains(says), "\(body): \(error.message)")
            }
            #expect(try await client.expect(.ok, get: path, as: RoomOutline.self).outline == Self.office)
        }
    }

    /// Scanners positioning on the device read the outlines from the radio map: setting or
    /// deleting one is a new map (a new ETag, so a scanner's conditional GET fetches it).
    @Test func theRadioMapCarriesTheOutlinesAndChangesWithThem() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let before = try await client.get("/v1/radiomap")
            #expect(try JSONDecoder().decode(RadioMap.self, from: Data(before.body.readableBytesView)).rooms == nil)
            _ = try await client.expect(.ok, .put, "/v1/rooms/\(spot.room.id)/outline", json: RoomOutline(outline: Self.office), as: Room.self)
            let drawn = try await client.get("/v1/radiomap")
            let map = try JSONDecoder().decode(RadioMap.self, from: Data(drawn.body.readableBytesView))
            #expect(map.rooms == [RadioMapRoom(roomID: spot.room.id, floorID: spot.floor.id, outline: Self.office)])
            #expect(drawn.headers[.eTag] != nil && drawn.headers[.eTag] != before.headers[.eTag])
            #expect(try await client.execute(uri: "/v1/rooms/\(spot.room.id)/outline", method: .delete).status == .noContent)
            let deleted = try await client.get("/v1/radiomap")
            #expect(try JSONDecoder().decode(RadioMap.self, from: Data(deleted.body.readableBytesView)).rooms == nil)
            #expect(deleted.headers[.eTag] != drawn.headers[.eTag])
        }
    }

    /// A location made with `floorID` instead of `roomID` goes in the room whose outline holds
    /// it (the smallest, an office inside a hall); none holding it, both or neither given, or an
    /// unknown floor is 422 naming the field, and nothing is stored.
    @Test func aLocationGivenAFloorGoesInTheRoomWhoseOutlineHoldsIt() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let hall = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: spot.floor.id, name: "Hall"), as: Room.self)
            _ = try await client.expect(.ok, .put, "/v1/rooms/\(hall.id)/outline", json: RoomOutline(outline: [[0, 0], [20, 0], [20, 10], [0, 10]]), as: Room.self)
            _ = try await client.expect(.ok, .put, "/v1/rooms/\(spot.room.id)/outline", json: RoomOutline(outline: Self.office), as: Room.self)
            let inOffice = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(floorID: spot.floor.id, x: 3, y: 4), as: Location.self)
            #expect(inOffice.roomID == spot.room.id && inOffice.floorID == spot.floor.id)
            let inHall = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(floorID: spot.floor.id, x: 15, y: 4), as: Location.self)
            #expect(inHall.roomID == hall.id)

            let refused: [(String, String, String)] = [
                (#"{"floorID": \#(spot.floor.id), "x": 30, "y": 4}"#, "roomID", "holds (30.0, 4.0)"),
                (#"{"floorID": \#(spot.floor.id), "roomID": \#(hall.id), "x": 3, "y": 4}"#, "roomID", "not both"),
                (#"{"x": 3, "y": 4}"#, "roomID", "give roomID"),
                (#"{"floorID": 999, "x": 3, "y": 4}"#, "floorID", "no floor 999"),
            ]
            for (body, field, says) in refused {
                let response = try await client.execute(uri: "/v1/locations", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
                #expect(response.status == .unprocessableContent, "\(body)")
                let detail = try errorBody(response)
                #expect(detail.field == field && detail.message.contains(says), "\(body): \(detail)")
            }
            #expect(try await client.expect(.ok, get: "/v1/locations", as: [Location].self).count == 3, "the spot's, and the two made")
        }
    }

    @Test func theGeoJSONExportDrawsAnOutlinedRoomAsItsPolygon() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            _ = try await client.expect(
                .ok, .put, "/v1/floors/\(world.ground.id)/georeference",
                json: NewGeoreference(controlPoints: GeoreferenceTests.controlPoints()), as: Georeference.self
            )
            // Drawn clockwise on the plan (y grows southwards), five corners: more than the hull of its two locations.
            let outline: [[Double]] = [[0, 0], [0, 8], [6, 8], [6, 0], [3, -2]]
            _ = try await client.expect(.ok, .put, "/v1/rooms/\(world.rooms[0].id)/outline", json: RoomOutline(outline: outline), as: Room.self)
            let collection = try decoded(FloorFeatureCollection.self, try await client.get("/v1/floors/\(world.ground.id)/export.geojson"))
            let room = try #require(collection.features.first { $0.id == "room/\(world.rooms[0].id)" })
            guard case .polygon(let rings)? = room.geometry else {
                Issue.record("an outlined room is its polygon: \(String(describing: room.geometry))")
                return
            }
            #expect(rings.count == 1 && rings[0].count == 6 && rings[0].first == rings[0].last)
            var signedArea = 0.0
            for index in 0 ..< rings[0].count - 1 {
                signedArea += rings[0][index][0] * rings[0][index + 1][1] - rings[0][index + 1][0] * rings[0][index][1]
            }
            #expect(signedArea > 0, "RFC 7946: an exterior ring runs anticlockwise")
        }
    }

    /// A scanner posts positions naming the hall (its nearest location's room) from inside the
    /// office's outline: switchd stores the office, and presence has the scanner enter the office;
    /// a tag's position there names the office, and the tag enters it.
    @Test func aPostedPositionsRoomAndPresenceFollowTheOutline() async throws {
        let feeds = Feeds()
        let database = try AppDatabase.inMemory()
        let rules = PresenceRules(dwell: .zero, awayAfter: .seconds(3600))
        try await makeIntegrationApp(database, presence: rules, feeds: feeds, clock: TestClock()).test(.live) { client in
            let world = try await PresenceWorld.make(client)
            _ = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: world.hall.id, x: 3, y: 4), as: Location.self)
            _ = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: world.office.id, x: 20, y: 20), as: Location.self)
            _ = try await client.expect(.ok, .put, "/v1/rooms/\(world.office.id)/outline", json: RoomOutline(outline: Self.office), as: Room.self)
            let stored = try await world.post([
                RecordedPosition(t: 0, room: "hall", x: 3.2, y: 4.1),
                RecordedPosition(t: 1, room: "hall", x: 3.4, y: 4.2),
            ], with: client)
            #expect(stored.map(\.roomID) == [world.office.id, world.office.id])
            await feeds.presenceHasRead(try #require(stored.last).id)
            let events = try await client.expect(.ok, get: "/v1/events?scannerID=default", as: Page<PresenceEvent>.self).items
            #expect(events.map(\.kind) == [.entered, .entered])
            #expect(events.map(\.roomID) == [nil, world.office.id], "entered the office, never the hall")

            // A tag's window located there, its room given by the store as the tracker's is.
            let tag = try await TagPresenceTests.badge(client)
            let time = Readings.start.addingTimeInterval(2)
            let position = try await database.storeTagPosition(of: tag.id, at: time, onFloor: world.floor.id) { _, room in
                let roomID = try room(3.3, 4.1)
                let position = TagPosition(
                    id: 0, tagID: tag.id, time: time, floorID: world.floor.id, x: 3.3, y: 4.1, roomID: roomID,
                    accuracyMetres: 1, method: "fused", scannersHeard: 3
                )
                return (position, nil)
            }
            #expect(position.roomID == world.office.id)
            await feeds.tagPositions.publish(upTo: position.id)
            await feeds.presenceHasRead(tagPosition: position.id)
            let tagEvents = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/events", as: Page<PresenceEvent>.self).items
            #expect(tagEvents.map(\.kind) == [.entered, .entered])
            #expect(tagEvents.map(\.roomID) == [nil, world.office.id])
        }
    }
}
