import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd

/// `GET /v1/stream`: every feed a page follows in one server-sent-event stream, over a real
/// loopback connection, read as it arrives.
@Suite(.timeLimit(.minutes(1))) struct LiveFeedTests {
    static let otherTag = TagIdentity.iBeacon(BeaconID(uuid: TagWorld.tagUUID, major: 7, minor: 2))

    /// Two tags heard by the fixed scanners in the window ending at `second`, at two spots.
    static func reportTwoTags(_ client: some TestClientProtocol, at second: TimeInterval) async throws {
        for index in TagWorld.corners.indices {
            let batch = SightingBatch(scannerID: TagWorld.scannerID(index), sightings: [
                TagWorld.sighting(rssi: TagWorld.rssi(index, tagAt: 3, 4), at: second),
                TagWorld.sighting(otherTag, rssi: TagWorld.rssi(index, tagAt: 7, 6), at: second),
            ])
            _ = try await client.expect(.created, .post, "/v1/sightings", json: batch, as: SightingReceipt.self)
        }
    }

    /// A site with two tags and the four fixed scanners; returns the tags' IDs and the world.
    static func site(_ client: some TestClientProtocol) async throws -> (tags: [Int64], world: PositioningWorld) {
        let world = try await PositioningWorld.make(client)
        try await TagWorld.placeScanners(client, floorID: world.ground.id)
        var tags: [Int64] = []
        for (name, identity) in [("Bike", TagWorld.tagIdentity), ("Cart", otherTag)] {
            tags.append(try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: name, identity: identity), as: ScanContract.Tag.self).id)
        }
        return (tags, world)
    }

    static func events(_ reader: inout EventReader, count: Int) async throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        while events.count < count {
            events.append(try #require(try await reader.nextEvent()))
        }
        return events
    }

    @Test func oneStreamCarriesEveryTagsAndScannersPositionsAndResumesAfterLastEventID() async throws {
        try await makeApp(try .inMemory()).test(.live) { client in
            let port = try #require(client.port)
            let (tags, world) = try await Self.site(client)
            let events = try await withEventStream(port: port, path: "/v1/stream") { reader in
                #expect(try await reader.status() == 200)
                // Windows 1 and 2 are located once window 3 is reported: four tag positions.
                for second in [1.0, 2.0, 3.0] { try await Self.reportTwoTags(client, at: second) }
                _ = try await client.expect(.created, .post, "/v1/positions", json: Positions.new(floor: world.ground, x: 2), as: Position.self)
                return try await Self.events(&reader, count: 5)
            }
            #expect(events.map(\.event).sorted() == ["position", "tagPosition", "tagPosition", "tagPosition", "tagPosition"])
            let tagPositions = try events.filter { $0.event == "tagPosition" }.map {
                try JSONCoding.decoder().decode(TagPosition.self, from: Data($0.data.utf8))
            }
            #expect(Set(tagPositions.map(\.tagID)) == Set(tags), "each event names its tag")
            let position = try JSONCoding.decoder().decode(Position.self, from: Data(try #require(events.first { $0.event == "position" }).data.utf8))
            #expect(position.scannerID == .default, "and a scanner's its scanner")
            // Each id is where the stream is in every feed it follows.
            let last = try LiveCursor(parsing: try #require(events.last?.id), field: "id")
            #expect(last.sequences == [.position: 1, .tagPosition: 4])

            // Resumed after the first event: the rest, nothing repeated or skipped.
            let first = try #require(events.first?.id)
            let resumed = try await withEventStream(port: port, path: "/v1/stream", headers: ["Last-Event-ID": first]) { reader in
                #expect(try await reader.status() == 200)
                return try await Self.events(&reader, count: 4)
            }
            let payload = { (events: ArraySlice<ServerSentEvent>) in events.map { "\($0.event ?? "") \($0.data)" }.sorted() }
            #expect(payload(resumed[...]) == payload(events.dropFirst()))
        }
    }

    @Test func theStreamNarrowsToTagsScannersFloorsAndFollowsSwitchesAndReadings() async throws {
        try await makeApp(try .inMemory()).test(.live) { client in
            let port = try #require(client.port)
            let (tags, world) = try await Self.site(client)
            let other = try ScannerID("pi-2")
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: other), as: ScanContract.Scanner.self)

            let narrowed = try await withEventStream(
                port: port, path: "/v1/stream?feeds=position,tagPosition&tagIDs=\(tags[1])&scannerIDs=pi-2&floor=\(world.ground.id)"
            ) { reader in
                #expect(try await reader.status() == 200)
                for second in [1.0, 2.0, 3.0] { try await Self.reportTwoTags(client, at: second) }
                _ = try await client.expect(.created, .post, "/v1/positions", json: Positions.new(floor: world.ground), as: Position.self)
                _ = try await client.expect(.created, .post, "/v1/positions", json: Positions.new(scanner: other, floor: world.first), as: Position.self)
                _ = try await client.expect(.created, .post, "/v1/positions", json: Positions.new(scanner: other, floor: world.ground, x: 5), as: Position.self)
                return try await Self.events(&reader, count: 3)
            }
            let tagPositions = try narrowed.filter { $0.event == "tagPosition" }.map {
                try JSONCoding.decoder().decode(TagPosition.self, from: Data($0.data.utf8))
            }
            #expect(tagPositions.map(\.tagID) == [tags[1], tags[1]], "the other tag is left out")
            let positions = try narrowed.filter { $0.event == "position" }.map { try JSONCoding.decoder().decode(Position.self, from: Data($0.data.utf8)) }
            #expect(positions.map(\.scannerID) == [other] && positions.map(\.x) == [5], "other scanners and floors are left out")

            let survey = try await withEventStream(port: port, path: "/v1/stream?feeds=switch,measurement&scannerIDs=default") { reader in
                #expect(try await reader.status() == 200)
                var events = [try #require(try await reader.nextEvent())]
                let on = try await client.startSurvey(at: 1)
                events.append(try #require(try await reader.nextEvent()))
                _ = try await client.uploadNew(Readings.batch([Readings.wifi()], revision: on.revision))
                events.append(try #require(try await reader.nextEvent()))
                return events
            }
            #expect(survey.map(\.event) == ["switch", "switch", "measurement"], "the switch as it is, its change, then the reading")
            let switches = try survey.prefix(2).map { try JSONCoding.decoder().decode(ScanSwitch.self, from: Data($0.data.utf8)) }
            #expect(switches.map(\.scanning) == [false, true] && switches.allSatisfy { $0.scannerID == .default })
            #expect(try LiveCursor(parsing: try #require(survey.last?.id), field: "id").sequences == [.measurement: 1])
        }
    }

    @Test func badQueriesAndResumePointsAreRefusedNamingTheProblem() async throws {
        try await makeApp(try .inMemory()).test(.live) { client in
            for (path, headers, field) in [
                ("/v1/stream?feeds=position,weather", [:], "feeds"),
                ("/v1/stream?feeds=", [:], "feeds"),
                ("/v1/stream?feeds=switch", [:], "scannerIDs"),
                ("/v1/stream?scannerIDs=bad%20id", [:], "scannerIDs"),
                ("/v1/stream?tagIDs=1,0", [:], "tagIDs"),
                ("/v1/stream?floor=x", [:], "floor"),
                ("/v1/stream?after=position:x", [:], "after"),
                ("/v1/stream", ["Last-Event-ID": "weather:3"], "Last-Event-ID"),
                ("/v1/stream", ["Last-Event-ID": "7"], "Last-Event-ID"),
            ] as [(String, [String: String], String)] {
                var fields = HTTPFields()
                for (name, value) in headers { fields[HTTPFields.Element.Name(name)!] = value }
                let response = try await client.get(path, headers: fields)
                #expect(response.status == .unprocessableContent, "\(path)")
                #expect(try errorBody(response).field == field, "\(path)")
            }
            let unknown = try await client.get("/v1/stream?feeds=switch&scannerIDs=nobody")
            #expect(unknown.status == .notFound)
        }
    }

    @Test func theCursorReadsBackWhatItWrites() throws {
        let cursor = LiveCursor([.tagPosition: 7, .position: 41, .measurement: 0])
        #expect(cursor.text == "position:41,tagPosition:7,measurement:0")
        #expect(try LiveCursor(parsing: cursor.text, field: "id") == cursor)
        #expect(try LiveCursor(parsing: "", field: "id") == LiveCursor())
        #expect(throws: APIError.self) { try LiveCursor(parsing: "position:-1", field: "id") }
    }
}
