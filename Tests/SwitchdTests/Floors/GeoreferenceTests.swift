import Foundation
import Hummingbird
import HummingbirdTesting
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `/v1/floors/{id}/georeference`, the latitude and longitude it gives locations, beacons and
/// positions, the distances of links between buildings, and the floor's GeoJSON export.
@Suite struct GeoreferenceTests {
    /// Control points for a plan whose x runs east and y south, with its origin `eastOffset`
    /// metres east of a spot in London.
    static func controlPoints(eastOffset: Double = 0) -> [ControlPoint] {
        let plane = LocalTangentPlane(referenceLatitude: 51.5128, referenceLongitude: -0.1174)
        return [(0.0, 0.0), (40, 0), (0, 30)].map { x, y in
            let place = plane.unproject(east: x + eastOffset, north: -y)
            return ControlPoint(x: x, y: y, latitude: place.latitude, longitude: place.longitude)
        }
    }

    @Test func aGeoreferencedFloorGivesCoordinatesToLocationsBeaconsAndPositions() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            #expect(try await client.expect(.ok, get: "/v1/locations/\(world.a.id)", as: Location.self).latitude == nil)
            // Not geo-referenced is a normal state, not an error: 200 `null` (the admin page asks for every floor).
            #expect(try await client.expect(.ok, get: "/v1/floors/\(world.ground.id)/georeference", as: Georeference?.self) == nil)
            #expect(try await client.get("/v1/floors/999/georeference").status == .notFound)

            let points = Self.controlPoints()
            let fitted = try await client.expect(
                .ok, .put, "/v1/floors/\(world.ground.id)/georeference", json: NewGeoreference(controlPoints: points), as: Georeference.self
            )
            #expect(fitted.controlPoints.count == 3 && fitted.maxResidualMetres < 1e-6)
            #expect(try await client.expect(.ok, get: "/v1/floors/\(world.ground.id)/georeference", as: Georeference.self) == fitted)

            let a = try await client.expect(.ok, get: "/v1/locations/\(world.a.id)", as: Location.self)
            #expect(abs((a.latitude ?? 0) - points[0].latitude) < 1e-9 && abs((a.longitude ?? 0) - points[0].longitude) < 1e-9)
            let b = try await client.expect(.ok, get: "/v1/locations/\(world.b.id)", as: Location.self)
            let ab = haversineDistance(latitude1: a.latitude!, longitude1: a.longitude!, latitude2: b.latitude!, longitude2: b.longitude!)
            #expect(abs(ab - 5) < 0.001, "A (0,0) and B (3,4) are 5 m apart on Earth too, got \(ab)")
            #expect(try await client.expect(.ok, get: "/v1/locations?floor=\(world.first.id)", as: [Location].self).allSatisfy { $0.latitude == nil })

            let beacon = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: world.ground.id), as: Beacon.self)
            #expect(beacon.latitude != nil && beacon.longitude != nil)
            let position = try await client.expect(.created, .post, "/v1/positions", json: Positions.new(floor: world.ground), as: Position.self)
            #expect(position.latitude != nil)
            let page = try await client.expect(.ok, get: "/v1/positions", as: Page<Position>.self)
            #expect(page.items.map(\.latitude) == [position.latitude])

            #expect(try await client.execute(uri: "/v1/floors/\(world.ground.id)/georeference", method: .delete).status == .noContent)
            #expect(try await client.expect(.ok, get: "/v1/locations/\(world.a.id)", as: Location.self).latitude == nil)
            #expect(try await client.execute(uri: "/v1/floors/\(world.ground.id)/georeference", method: .delete).status == .noContent, "idempotent")
            #expect(try await client.execute(uri: "/v1/floors/999999/georeference", method: .delete).status == .notFound, "an unknown floor")
            #expect(try await client.expect(.ok, get: "/v1/floors/\(world.ground.id)/georeference", as: Georeference?.self) == nil)
        }
    }

    @Test func degenerateControlPointsAreRefusedAndKeepWhatWasStored() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            let good = Self.controlPoints()
            _ = try await client.expect(.ok, .put, "/v1/floors/\(world.ground.id)/georeference", json: NewGeoreference(controlPoints: good), as: Georeference.self)
            var collinear = good
            collinear[2].x = 80
            collinear[2].y = 0
            var badLatitude = good
            badLatitude[1].latitude = 91
            let refused: [(NewGeoreference, String)] = [
                (NewGeoreference(controlPoints: collinear), "controlPoints"),
                (NewGeoreference(controlPoints: Array(good.prefix(2))), "controlPoints"),
                (NewGeoreference(controlPoints: badLatitude), "controlPoints[1].latitude"),
            ]
            for (body, field) in refused {
                let response = try await client.send(.put, "/v1/floors/\(world.ground.id)/georeference", json: body)
                #expect(response.status == .unprocessableContent)
                #expect(try errorBody(response).field == field)
            }
            let collinearMessage = try errorBody(try await client.send(
                .put, "/v1/floors/\(world.ground.id)/georeference", json: NewGeoreference(controlPoints: collinear)
            )).message
            #expect(collinearMessage.contains("one line"), "\(collinearMessage)")
            let kept = try await client.expect(.ok, get: "/v1/floors/\(world.ground.id)/georeference", as: Georeference.self)
            #expect(kept.controlPoints.map(\.latitude) == good.map(\.latitude))
            #expect(try await client.send(.put, "/v1/floors/999/georeference", json: NewGeoreference(controlPoints: good)).status == .notFound)
        }
    }

    @Test func linksBetweenGeoreferencedBuildingsTakeTheirDistanceFromTheEarth() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            let between = NewLink(from: world.a.id, to: world.e.id, kind: .stairs)
            #expect(try await client.send(.post, "/v1/links", json: between).status == .unprocessableContent, "no geo-reference yet")
            // The annex's origin (E) lies 100 m east of the main building's (A).
            _ = try await client.expect(.ok, .put, "/v1/floors/\(world.ground.id)/georeference", json: NewGeoreference(controlPoints: Self.controlPoints()), as: Georeference.self)
            _ = try await client.expect(
                .ok, .put, "/v1/floors/\(world.annex.id)/georeference", json: NewGeoreference(controlPoints: Self.controlPoints(eastOffset: 100)),
                as: Georeference.self
            )
            let link = try await client.expect(.created, .post, "/v1/links", json: between, as: Link.self)
            #expect(abs(link.distanceMetres - 100) < 0.01, "both on level 0, 100 m apart: \(link.distanceMetres)")
            let route = try await client.expect(.ok, .post, "/v1/routes", json: RouteRequest(from: world.a.id, to: world.e.id), as: Route.self)
            #expect(route.path == [world.a.id, world.e.id] && abs(route.distanceMetres - 100) < 0.01)
        }
    }

    @Test func theFloorExportsAsGeoJSONInLongitudeLatitudeOrder() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            #expect(try await client.get("/v1/floors/\(world.ground.id)/export.geojson").status == .conflict)
            let points = Self.controlPoints()
            _ = try await client.expect(.ok, .put, "/v1/floors/\(world.ground.id)/georeference", json: NewGeoreference(controlPoints: points), as: Georeference.self)
            _ = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: world.rooms[0].id, name: "F", x: 6, y: 0), as: Location.self)
            _ = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: world.ground.id), as: Beacon.self)
            let link = try await client.expect(.created, .post, "/v1/links", json: NewLink(from: world.a.id, to: world.b.id, kind: .walk), as: Link.self)

            let response = try await client.get("/v1/floors/\(world.ground.id)/export.geojson")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/geo+json")
            let collection = try decoded(FloorFeatureCollection.self, response)
            #expect(collection.type == "FeatureCollection")
            #expect(Set(collection.features.map(\.properties.kind)) == ["room", "location", "beacon", "link"])
            let a = try #require(collection.features.first { $0.id == "location/\(world.a.id)" })
            guard case .point(let position)? = a.geometry else {
                Issue.record("a location is a point")
                return
            }
            #expect(abs(position[0] - points[0].longitude) < 1e-9 && abs(position[1] - points[0].latitude) < 1e-9, "RFC 7946: longitude first")
            let room = try #require(collection.features.first { $0.id == "room/\(world.rooms[0].id)" })
            guard case .polygon(let rings)? = room.geometry else {
                Issue.record("the room's three spots span an area: \(String(describing: room.geometry))")
                return
            }
            #expect(rings[0].count == 4 && rings[0].first == rings[0].last, "a closed ring round A, B and F")
            let line = try #require(collection.features.first { $0.id == "link/\(link.id)" })
            guard case .lineString(let ends)? = line.geometry else {
                Issue.record("a link is a line")
                return
            }
            #expect(ends.count == 2 && line.properties.distanceMetres == 5)
            // Raw JSON: a room without spots still has a "geometry" member, null.
            _ = try await client.expect(.created, .post, "/v1/rooms", json: NewRoom(floorID: world.ground.id, name: "Empty"), as: Room.self)
            let text = String(buffer: try await client.get("/v1/floors/\(world.ground.id)/export.geojson").body)
            #expect(text.contains("\"geometry\":null") || text.contains("\"geometry\" : null"), "\(text.prefix(200))")
        }
    }
}
