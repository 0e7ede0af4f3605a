import Foundation
import Hummingbird
import HummingbirdTesting
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `/v1/tags/{id}/references` ("record this tag here"): a recording followed through the API
/// as the admin page polls it while scanners report, each refusal with its status and problem,
/// and the point it records pulling the tag's position to the spot where a wall misleads
/// multilateration.
@Suite struct TagReferenceTests {
    @Test func aRecordingIsFollowedToDoneThroughTheAPIAndDeleted() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground", level: 0), as: Floor.self)
            try await TagWorld.placeScanners(client, floorID: floor.id)
            let tag = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
            let path = "/v1/tags/\(tag.id)/references"

            let started = try await client.expect(.created, .post, path, json: NewTagReference(floorID: floor.id, x: 7, y: 2, windows: 2), as: TagReference.self)
            #expect(started.state == .recording && started.windowsWanted == 2 && started.windowsRecorded == 0 && started.z == tag.height)
            try await TagWorld.report(client, tagAt: 7, 2, at: 1)
            var now = try await client.expect(.ok, get: "\(path)/\(started.id)", as: TagReference.self)
            #expect(now.windowsRecorded == 1 && now.state == .recording && now.scannersHeard.count == 4)
            try await TagWorld.report(client, tagAt: 7, 2, at: 2)
            now = try await client.expect(.ok, get: "\(path)/\(started.id)", as: TagReference.self)
            #expect(now.windowsRecorded == 2 && now.state == .done)
            #expect(try await client.expect(.ok, get: path, as: [TagReference].self) == [now])

            #expect(try await client.execute(uri: "\(path)/\(started.id)", method: .delete).status == .noContent)
            #expect(try await client.execute(uri: "\(path)/\(started.id)", method: .delete).status == .notFound)
            #expect(try await client.expect(.ok, get: path, as: [TagReference].self).isEmpty)
        }
    }

    @Test func refusalsNameTheProblemAndStoreNothing() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground", level: 0), as: Floor.self)
            let tag = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
            let path = "/v1/tags/\(tag.id)/references"
            let cases: [(body: String, status: HTTPResponse.Status, says: String)] = [
                (#"{"floorID": \#(floor.id), "x": 1, "y": 1, "windows": 0}"#, .unprocessableContent, "must be 1 to 30 windows, got 0"),
                (#"{"floorID": \#(floor.id), "x": 1, "y": 1, "windows": "five"}"#, .unprocessableContent, "windows"),
                (#"{"floorID": \#(floor.id), "x": 1e9, "y": 1}"#, .unprocessableContent, "within ±100000"),
                (#"{"floorID": \#(floor.id), "y": 1}"#, .unprocessableContent, "is required"),
                (#"{"floorID": 999, "x": 1, "y": 1}"#, .notFound, "no floor 999"),
            ]
            for (body, status, says) in cases {
                let response = try await client.execute(uri: path, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
                #expect(response.status == status, "\(body)")
                #expect(String(buffer: response.body).contains(says), "\(body): \(String(buffer: response.body))")
            }
            let unknown = try await client.send(.post, "/v1/tags/999/references", json: NewTagReference(floorID: floor.id, x: 1, y: 1))
            #expect(unknown.status == .notFound)
            #expect(try await client.get("/v1/tags/999/references").status == .notFound)
            #expect(try await client.get("\(path)/1").status == .notFound)
            #expect(try await client.get("\(path)/x").status == .notFound)
            #expect(try await client.expect(.ok, get: path, as: [TagReference].self).isEmpty, "nothing stored")

            _ = try await client.expect(.created, .post, path, json: NewTagReference(floorID: floor.id, x: 1, y: 1), as: TagReference.self)
            let again = try await client.send(.post, path, json: NewTagReference(floorID: floor.id, x: 2, y: 2))
            #expect(again.status == .conflict)
            #expect(String(buffer: again.body).contains("still being recorded"))
            #expect(try await client.expect(.ok, get: path, as: [TagReference].self).count == 1)
        }
    }

    /// Scanner 0 hears the tag through a wall (10 dB down): multilateration alone puts it away
    /// from the spot; once it was recorded there, the fingerprint brings it back.
    @Test func aRecordedSpotPullsTheTagsPositionToIt() async throws {
        func error(recording: Bool) async throws -> Double {
            let database = try AppDatabase.inMemory()
            let floor = try await database.createFloor(NewFloor(name: "Ground", level: 0))
            try await TagWorld.placeScanners(in: database, floorID: floor.id)
            let tag = try await database.createTag(NewTag(name: "Bike", identity: TagWorld.tagIdentity))
            let tracker = TagTracker(database: database)
            func window(_ second: TimeInterval) async throws -> TagPosition? {
                for index in TagWorld.corners.indices {
                    let rssi = TagWorld.rssi(index, tagAt: 7, 2, bias: index == 0 ? -10 : 0)
                    let batch = SightingBatch(scannerID: TagWorld.scannerID(index), sightings: [TagWorld.sighting(rssi: rssi, at: second)])
                    if try await database.ingestSightings(batch, reading: tracker.settings.rssiStatistic).beaconsHeard { await tracker.beaconsHeard() }
                }
                return try await tracker.locate(tag.id, at: Readings.start.addingTimeInterval(second))
            }
            if recording {
                let reference = try await database.createTagReference(NewTagReference(floorID: floor.id, x: 7, y: 2), for: tag.id, at: Readings.start)
                for second in 1 ... 5 { _ = try await window(TimeInterval(second)) }
                #expect(try await database.tagReference(reference.id, of: tag.id).state == .done)
            }
            let position = try #require(try await window(20))
            return ((position.x - 7) * (position.x - 7) + (position.y - 2) * (position.y - 2)).squareRoot()
        }
        let without = try await error(recording: false)
        let with = try await error(recording: true)
        #expect(without > 1, "the wall misleads multilateration: \(without) m")
        #expect(with < 0.5 && with < without / 2, "recorded: \(with) m, not: \(without) m")
    }
}
