import Foundation
import ScanContract
import Testing
@testable import scannerd

/// Track mode against switchd's answers, scripted at the HTTP edge: the allow-list is read
/// first, and only watched tags' windows go out, one batch per closed window.
@Suite("Track forwarder")
struct TrackForwarderTests {
    @Test func forwardsClosedWindowsOfWatchedTagsOnly() async throws {
        let bike = TagIdentity.eddystoneUID(namespace: TrackWindowsTests.namespace, instance: TrackWindowsTests.instance)
        let tag = ScanContract.Tag(id: 1, name: "bike", identity: bike, txPower: -60)
        let client = ScriptedHTTPClient { request, _ in
            if request.method == .get {
                return HTTPResponse(status: 200, body: try JSONCoding.encoder().encode([tag]))
            }
            let batch = try JSONCoding.decoder().decode(SightingBatch.self, from: request.body ?? Data())
            return HTTPResponse(
                status: 201, body: try JSONCoding.encoder().encode(SightingReceipt(stored: batch.sightings.count, ignored: 0, positions: []))
            )
        }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let packets: [(bytes: [UInt8], at: Double)] = [
            (TrackWindowsTests.report(TrackWindowsTests.eddystone, rssi: -70), 0.1),
            (iBeaconReport(minor: 3, rssi: -50), 0.2),
            (TrackWindowsTests.report(TrackWindowsTests.eddystone, rssi: -66), 0.7),
            (TrackWindowsTests.report(TrackWindowsTests.eddystone, rssi: -62), 1.4),
        ]
        let heard = AsyncStream<HeardAdvertisement> { continuation in
            for packet in packets {
                for advertisement in HeardAdvertisement.decode(packet.bytes, at: start.addingTimeInterval(packet.at)).heard {
                    continuation.yield(advertisement)
                }
            }
            continuation.finish()
        }
        let forwarder = TrackForwarder(
            api: SwitchdAPI(baseURL: URL(string: "http://switchd.invalid:8080")!, client: client), scannerID: testScanner, logger: quietLogger
        )
        #expect(try await forwarder.run(heard) == 2)

        let requests = await client.requests
        #expect(requests.map(\.method) == [.get, .post, .post])
        #expect(requests.first?.url.path == "/v1/tags")
        let batches = try requests.dropFirst().map { try JSONCoding.decoder().decode(SightingBatch.self, from: $0.body ?? Data()) }
        #expect(batches.allSatisfy { $0.scannerID == testScanner && $0.sightings.map(\.identity) == [bike] })
        #expect(batches.map { $0.sightings.first?.count } == [2, 1])
        #expect(batches.first?.sightings.first?.medianRSSI == -68)
        #expect(batches.first?.sightings.first?.windowEnd == start.addingTimeInterval(1))
    }

    @Test func withoutTheAllowListNothingIsForwarded() async throws {
        let client = ScriptedHTTPClient { _, _ in throw URLError(.cannotConnectToHost) }
        let forwarder = TrackForwarder(
            api: SwitchdAPI(baseURL: URL(string: "http://switchd.invalid:8080")!, client: client), scannerID: testScanner, logger: quietLogger
        )
        await #expect(throws: URLError.self) { try await forwarder.run(AsyncStream<HeardAdvertisement> { $0.finish() }) }
        #expect(await client.requests.count == 1)
    }
}
