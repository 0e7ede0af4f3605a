import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `/v1/links` and `POST /v1/routes` over a two-storey building and an annex.
@Suite struct LinkAndRouteTests {
    @Test func linksDefaultToTheStraightLineAndAStoreyHeight() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            let walk = try await client.expect(.created, .post, "/v1/links", json: NewLink(from: world.a.id, to: world.b.id, kind: .walk), as: Link.self)
            #expect(walk.distanceMetres == 5, "A (0,0) to B (3,4)")
            let stairs = try await client.expect(.created, .post, "/v1/links", json: NewLink(from: world.b.id, to: world.c.id, kind: .stairs), as: Link.self)
            #expect(stairs.distanceMetres == NewLink.storeyHeightMetres, "B and C are one above the other, one storey apart")
            let lift = try await client.expect(
                .created, .post, "/v1/links", json: NewLink(from: world.a.id, to: world.d.id, kind: .lift, distanceMetres: 30), as: Link.self
            )
            #expect(lift.distanceMetres == 30)
            #expect(try await client.expect(.created, .post, "/v1/links", json: NewLink(from: world.d.id, to: world.e.id, kind: .lift, distanceMetres: 80), as: Link.self).kind == .lift)

            #expect(try await client.expect(.ok, get: "/v1/links?location=\(world.b.id)", as: [Link].self) == [walk, stairs])
            #expect(try await client.expect(.ok, get: "/v1/links/\(lift.id)", as: Link.self) == lift)
            #expect(try await client.expect(.ok, get: "/v1/links", as: [Link].self).count == 4)

            #expect(try await client.execute(uri: "/v1/links/\(lift.id)", method: .delete).status == .noContent)
            #expect(try await client.get("/v1/links/\(lift.id)").status == .notFound)
            // Links go with their locations.
            #expect(try await client.execute(uri: "/v1/locations/\(world.b.id)", method: .delete).status == .noContent)
            #expect(try await client.expect(.ok, get: "/v1/links", as: [Link].self).map(\.to) == [world.e.id])
        }
    }

    @Test func linksThatCannotBeAreRefusedNamingTheField() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            _ = try await client.expect(.created, .post, "/v1/links", json: NewLink(from: world.a.id, to: world.b.id, kind: .walk), as: Link.self)
            let refused: [(NewLink, HTTPResponse.Status, String?)] = [
                (NewLink(from: world.b.id, to: world.a.id, kind: .walk), .conflict, nil),
                (NewLink(from: world.a.id, to: world.b.id, kind: .stairs, distanceMetres: 2), .conflict, nil),
                (NewLink(from: world.a.id, to: world.a.id, kind: .walk), .unprocessableContent, "to"),
                (NewLink(from: world.a.id, to: world.c.id, kind: .walk), .unprocessableContent, "kind"),
                (NewLink(from: world.a.id, to: world.e.id, kind: .stairs), .unprocessableContent, "distanceMetres"),
                (NewLink(from: world.a.id, to: world.c.id, kind: .stairs, distanceMetres: 0), .unprocessableContent, "distanceMetres"),
                (NewLink(from: world.a.id, to: world.c.id, kind: .stairs, distanceMetres: 1e9), .unprocessableContent, "distanceMetres"),
                (NewLink(from: 999, to: world.a.id, kind: .walk), .unprocessableContent, "from"),
                (NewLink(from: world.a.id, to: 999, kind: .walk), .unprocessableContent, "to"),
            ]
            for (link, status, field) in refused {
                let response = try await client.send(.post, "/v1/links", json: link)
                #expect(response.status == status, "\(link)")
                #expect(try errorBody(response).field == field, "\(link)")
            }
            #expect(try await client.send(.post, "/v1/links", text: #"{"from": 1, "to": 2, "kind": "escalator"}"#).status == .unprocessableContent)
            #expect(try await client.expect(.ok, get: "/v1/links", as: [Link].self).count == 1)
            #expect(try await client.get("/v1/links?location=999").status == .notFound)
        }
    }

    @Test func routesCrossFloorsByTheShortestWay() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            for link in [
                NewLink(from: world.a.id, to: world.b.id, kind: .walk),   // 5
                NewLink(from: world.b.id, to: world.c.id, kind: .stairs), // 4
                NewLink(from: world.c.id, to: world.d.id, kind: .walk),   // 7
                NewLink(from: world.a.id, to: world.d.id, kind: .lift, distanceMetres: 30),
            ] {
                _ = try await client.expect(.created, .post, "/v1/links", json: link, as: Link.self)
            }
            let route = try await client.expect(.ok, .post, "/v1/routes", json: RouteRequest(from: world.a.id, to: world.d.id), as: Route.self)
            #expect(route == Route(
                from: world.a.id, to: world.d.id, path: [world.a.id, world.b.id, world.c.id, world.d.id],
                distanceMetres: 16, etaSeconds: 16 / Settings.defaultWalkingSpeed, walkingSpeed: Settings.defaultWalkingSpeed, floorChanges: 1,
                steps: [
                    RouteStep(kind: .walk, distanceMetres: 5, toLocationID: world.b.id, floorID: world.ground.id, instruction: "Go 5 m to the stairs"),
                    RouteStep(
                        kind: .stairs, distanceMetres: 4, floorChange: 1, toLocationID: world.c.id, floorID: world.first.id,
                        instruction: "Take the stairs up one floor"
                    ),
                    RouteStep(kind: .walk, distanceMetres: 7, toLocationID: world.d.id, floorID: world.first.id, instruction: "Go 7 m to Hall \(world.first.id)"),
                    RouteStep(kind: .arrive, distanceMetres: 0, toLocationID: world.d.id, floorID: world.first.id, instruction: "Arrive at Hall \(world.first.id)"),
                ]
            ))
            let back = try await client.expect(.ok, .post, "/v1/routes", json: RouteRequest(from: world.d.id, to: world.a.id, walkingSpeed: 2), as: Route.self)
            #expect(back.path == route.path.reversed() && back.etaSeconds == 8 && back.walkingSpeed == 2)
            #expect(back.steps.map(\.instruction) == [
                "Go 7 m to the stairs", "Take the stairs down one floor", "Go 5 m to Hall \(world.ground.id)", "Arrive at Hall \(world.ground.id)",
            ])

            let stay = try await client.expect(.ok, .post, "/v1/routes", json: RouteRequest(from: world.c.id, to: world.c.id), as: Route.self)
            #expect(stay.path == [world.c.id] && stay.distanceMetres == 0 && stay.etaSeconds == 0 && stay.floorChanges == 0)
            #expect(stay.steps.map(\.kind) == [.arrive])

            let unreachable = try await client.send(.post, "/v1/routes", json: RouteRequest(from: world.a.id, to: world.e.id))
            #expect(unreachable.status == .unprocessableContent)
            #expect(try errorBody(unreachable).field == "to")
            #expect(try errorBody(unreachable).message.contains("no chain of links"))

            let unknown = try await client.send(.post, "/v1/routes", json: RouteRequest(from: world.a.id, to: 999))
            #expect(unknown.status == .notFound)
            #expect(try errorBody(unknown).message == "no location 999")

            for speed in [0, -1, 11, 1e300] {
                let response = try await client.send(.post, "/v1/routes", json: RouteRequest(from: world.a.id, to: world.b.id, walkingSpeed: speed))
                #expect(response.status == .unprocessableContent, "\(speed)")
                #expect(try errorBody(response).field == "walkingSpeed", "\(speed)")
            }
            #expect(try await client.send(.post, "/v1/routes", text: #"{"from": 1}"#).status == .unprocessableContent)
            #expect(try await client.send(.post, "/v1/routes", text: #"{"from": 1, "#).status == .badRequest)
        }
    }

    @Test func theWalkingSpeedSettingIsTheDefault() async throws {
        var logger = Logger(label: "switchd-tests")
        logger.logLevel = .critical
        let settings = Settings(host: "127.0.0.1", port: 0, walkingSpeed: 0.5)
        let database = try AppDatabase.inMemory()
        let app = AdminByDefault(base: buildApplication(SwitchdDependencies(settings: settings, database: database, logger: logger)), database: database)
        try await app.test(.router) { client in
            let world = try await PositioningWorld.make(client)
            _ = try await client.expect(.created, .post, "/v1/links", json: NewLink(from: world.a.id, to: world.b.id, kind: .walk), as: Link.self)
            let route = try await client.expect(.ok, .post, "/v1/routes", json: RouteRequest(from: world.a.id, to: world.b.id), as: Route.self)
            #expect(route.walkingSpeed == 0.5 && route.etaSeconds == 10)
        }
        // `switchd --walking-speed X` reaches the default subcommand, serve, which checks it.
        #expect(throws: (any Error).self) { try SwitchdCommand.parseAsRoot(["--walking-speed", "0"]) }
        #expect(try SwitchdCommand.parseAsRoot(["--walking-speed", "1.2"]) is ServeCommand)
    }
}
