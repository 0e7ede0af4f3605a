import Foundation
import Positioning
import ScanContract
import Testing
@testable import scannerd

@Suite("the radio map kept on the device")
struct RadioMapCacheTests {
    static let map = RadioMap(
        floors: [RadioMapFloor(floorID: 1, building: "main", level: 0)],
        locations: [RadioMapLocation(
            locationID: 7, floorID: 1, roomID: 2, x: 3, y: 4,
            emitters: [EmitterFingerprint(emitter: .accessPoint(BSSID(rawValue: 0x0200_0000_0100)), mean: -61, spread: 2, count: 3)],
            scans: [[.accessPoint(BSSID(rawValue: 0x0200_0000_0100)): -61]]
        )]
    )

    static func mapResponse(etag: String) throws -> HTTPResponse {
        HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(map), headers: ["etag": etag])
    }

    func api(_ client: ScriptedHTTPClient) -> SwitchdAPI {
        SwitchdAPI(baseURL: URL(string: "http://switchd.invalid:8080")!, client: client)
    }

    @Test func aFetchedMapIsKeptOnDiskAndAskedForConditionallyAfterwards() async throws {
        let directory = try TemporaryDirectory()
        let client = ScriptedHTTPClient { request, index in
            #expect(request.url.path == "/v1/radiomap")
            return index == 0 ? try Self.mapResponse(etag: "\"v1\"") : HTTPResponse(status: 304, body: Data())
        }
        let cache = RadioMapCache(path: directory.file("radiomap.json"), api: api(client), logger: quietLogger)
        let first = await cache.refresh()
        #expect(first?.map == Self.map)
        #expect(first?.etag == "\"v1\"")
        let second = await cache.refresh()
        #expect(second?.map == Self.map)
        let requests = await client.requests
        #expect(requests.map { $0.headers["If-None-Match"] } == [nil, "\"v1\""])

        // A restart finds the map on disk and asks with its ETag straight away.
        let restarted = RadioMapCache(path: directory.file("radiomap.json"), api: api(client), logger: quietLogger)
        #expect(await restarted.copy?.map == Self.map)
        await restarted.refresh()
        #expect(await client.requests.last?.headers["If-None-Match"] == "\"v1\"")
    }

    @Test func whenSwitchdIsUnreachableTheHeldCopyStaysInUse() async throws {
        let directory = try TemporaryDirectory()
        let client = ScriptedHTTPClient { _, index in
            if index == 0 { return try Self.mapResponse(etag: "\"v1\"") }
            throw HTTPTransportError(code: .cannotLoadFromNetwork, reason: "Couldn't connect to server")
        }
        let cache = RadioMapCache(path: directory.file("radiomap.json"), api: api(client), logger: quietLogger)
        await cache.refresh()
        let afterFailure = await cache.refresh()
        #expect(afterFailure?.map == Self.map)
    }

    @Test func aCorruptSavedMapIsIgnoredAndReplaced() async throws {
        let directory = try TemporaryDirectory()
        FileManager.default.createFile(atPath: directory.file("radiomap.json"), contents: Data("{\"etag\": 4".utf8))
        let client = ScriptedHTTPClient { request, _ in
            #expect(request.headers["If-None-Match"] == nil)
            return try Self.mapResponse(etag: "\"v2\"")
        }
        let cache = RadioMapCache(path: directory.file("radiomap.json"), api: api(client), logger: quietLogger)
        #expect(await cache.copy == nil)
        #expect(await cache.refresh()?.etag == "\"v2\"")
        let saved = try JSONCoding.decoder().decode(RadioMapCache.Copy.self, from: Data(contentsOf: URL(fileURLWithPath: directory.file("radiomap.json"))))
        #expect(saved.map == Self.map)
    }

    @Test func aMapWithoutAnETagIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let client = ScriptedHTTPClient { _, _ in
            HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(Self.map))
        }
        let cache = RadioMapCache(path: directory.file("radiomap.json"), api: api(client), logger: quietLogger)
        #expect(await cache.refresh() == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.file("radiomap.json")))
    }
}
