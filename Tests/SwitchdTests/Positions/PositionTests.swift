import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `/v1/positions`: storing, paging, the latest per scanner, and the live stream.
@Suite(.timeLimit(.minutes(1))) struct PositionTests {
    @Test func aPostedPositionIsStoredAndAnsweredAsStored() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            let new = Positions.new(floor: world.first, x: 3.5, y: 4.25, roomID: world.rooms[1].id, nearestLocationID: world.c.id)
            let stored = try await client.expect(.created, .post, "/v1/positions", json: new, as: Position.self)
            #expect(stored == Position(id: 1, new))
            let page = try await client.expect(.ok, get: "/v1/positions", as: Page<Position>.self)
            #expect(page.items == [stored] && page.nextCursor == nil)
        }
    }

    @Test func theBeaconsHeardAreKeptWithTheirProximity() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            var new = Positions.new(floor: world.first, x: 1, y: 2, roomID: nil, nearestLocationID: nil)
            let beacon = BeaconID(uuid: UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!, major: 1, minor: 4)
            new.beacons = [
                BeaconSighting(beacon: beacon, rssi: -61.5, samples: 19, distanceMetres: 1.2, proximity: .near),
                BeaconSighting(beacon: beacon, rssi: -90, samples: 2, distanceMetres: nil, proximity: .unknown),
            ]
            let stored = try await client.expect(.created, .post, "/v1/positions", json: new, as: Position.self)
            #expect(stored.beacons == new.beacons)
            let latest = try await client.expect(.ok, get: "/v1/positions/latest?scannerID=\(new.scannerID)", as: Position.self)
            #expect(latest.beacons == new.beacons)
        }
    }

    @Test func positionsPageByCursorAndFilterByScannerAndTime() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            let other = try ScannerID("pi-2")
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: other), as: ScanContract.Scanner.self)
            var stored: [Position] = []
            for index in 0..<7 {
                let scanner = index.isMultiple(of: 3) ? other : .default
                stored.append(try await client.expect(
                    .created, .post, "/v1/positions", json: Positions.new(scanner: scanner, floor: world.ground, x: Double(index), at: Double(index)), as: Position.self
                ))
            }
            var pages: [[Position]] = []
            var uri = "/v1/positions?limit=3"
            while true {
                let page = try await client.expect(.ok, get: uri, as: Page<Position>.self)
                pages.append(page.items)
                guard let next = page.nextCursor else { break }
                uri = "/v1/positions?limit=3&cursor=\(next)"
            }
            #expect(pages.map(\.count) == [3, 3, 1])
            #expect(pages.flatMap { $0 } == stored)

            let mine = try await client.expect(.ok, get: "/v1/positions?scannerID=default", as: Page<Position>.self)
            #expect(mine.items == stored.filter { $0.scannerID == .default })
            let since = JSONCoding.formatDate(Readings.start.addingTimeInterval(2))
            let until = JSONCoding.formatDate(Readings.start.addingTimeInterval(5))
            let window = try await client.expect(.ok, get: "/v1/positions?since=\(since)&until=\(until)", as: Page<Position>.self)
            #expect(window.items == Array(stored[2..<5]))

            for bad in ["limit=0", "cursor=nonsense", "scannerID=no%20spaces", "since=yesterday"] {
                let response = try await client.get("/v1/positions?\(bad)")
                #expect(response.status == .unprocessableContent, "\(bad)")
                #expect(try errorBody(response).field == String(bad.prefix { $0 != "=" }), "\(bad)")
            }
        }
    }

    @Test func latestIsByTimeComputedPerScanner() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            let other = try ScannerID("pi-2")
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: other), as: ScanContract.Scanner.self)
            let none = try await client.get("/v1/positions/latest?scannerID=default")
            #expect(none.status == .notFound)
            #expect(try errorBody(none).message.contains("no position"))
            #expect(try await client.expect(.ok, get: "/v1/positions/latest", as: [Position].self).isEmpty)

            let newest = try await client.expect(.created, .post, "/v1/positions", json: Positions.new(floor: world.ground, x: 2, at: 10), as: Position.self)
            // Posted later but computed earlier: not the latest.
            _ = try await client.expect(.created, .post, "/v1/positions", json: Positions.new(floor: world.ground, x: 1, at: 5), as: Position.self)
            let others = try await client.expect(.created, .post, "/v1/positions", json: Positions.new(scanner: other, floor: world.first, at: 1), as: Position.self)

            #expect(try await client.expect(.ok, get: "/v1/positions/latest?scannerID=default", as: Position.self) == newest)
            #expect(try await client.expect(.ok, get: "/v1/positions/latest", as: [Position].self) == [newest, others])
            #expect(try await client.get("/v1/positions/latest?scannerID=nobody").status == .notFound)
            #expect(try await client.get("/v1/positions/latest?scannerID=bad%20id").status == .unprocessableContent)
        }
    }

    @Test func positionStreamResumesAfterLastEventIDThenGoesLive() async throws {
        try await makeApp(try .inMemory()).test(.live) { client in
            let port = try #require(client.port)
            let world = try await PositioningWorld.make(client)
            var stored: [Position] = []
            for index in 0..<3 {
                stored.append(try await client.expect(.created, .post, "/v1/positions", json: Positions.new(floor: world.ground, x: Double(index)), as: Position.self))
            }
            let events = try await withEventStream(port: port, path: "/v1/positions/stream", headers: ["Last-Event-ID": "1"]) { reader in
                #expect(try await reader.status() == 200)
                var events: [ServerSentEvent] = []
                for _ in 0..<2 {
                    events.append(try #require(try await reader.nextEvent()))
                }
                stored.append(try await client.expect(.created, .post, "/v1/positions", json: Positions.new(floor: world.first, x: 9), as: Position.self))
                events.append(try #require(try await reader.nextEvent()))
                return events
            }
            #expect(events.map(\.id) == ["2", "3", "4"])
            #expect(events.allSatisfy { $0.event == "position" })
            let received = try events.map { try JSONCoding.decoder().decode(Position.self, from: Data($0.data.utf8)) }
            #expect(received == Array(stored[1...]))

            // Filtered by scanner, from now: only the next position of that scanner arrives.
            let other = try ScannerID("pi-2")
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: other), as: ScanContract.Scanner.self)
            let event = try await withEventStream(port: port, path: "/v1/positions/stream?scannerID=pi-2") { reader in
                #expect(try await reader.status() == 200)
                _ = try await client.expect(.created, .post, "/v1/positions", json: Positions.new(floor: world.ground), as: Position.self)
                _ = try await client.expect(.created, .post, "/v1/positions", json: Positions.new(scanner: other, floor: world.ground), as: Position.self)
                return try #require(try await reader.nextEvent())
            }
            #expect(event.id == "6")
            #expect(try JSONCoding.decoder().decode(Position.self, from: Data(event.data.utf8)).scannerID == other)
        }
    }
}
