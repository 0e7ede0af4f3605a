import Clocks
import Foundation
import Harness
import ScanContract
import DaemonSupport
import Testing
@testable import scannerd

/// Track mode against switchd's answers, scripted at the HTTP edge: the allow-list (the
/// watched list of the scanner's switch) is read first, and only watched tags' windows go out, one batch per closed window.
@Suite("Track forwarder")
struct TrackForwarderTests {
    @Test func forwardsClosedWindowsOfWatchedTagsOnly() async throws {
        let bike = TagIdentity.eddystoneUID(namespace: TrackWindowsTests.namespace, instance: TrackWindowsTests.instance)
        let client = ScriptedHTTPClient { request, _ in
            if request.method == .get {
                return try Self.switchAnswer(watching: [bike])
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
        let heard = AsyncStream<[TrackHearing]> { continuation in
            for packet in packets {
                continuation.yield(HeardAdvertisement.decode(packet.bytes, at: start.addingTimeInterval(packet.at)).heard.compactMap(TrackHearing.init))
            }
            continuation.finish()
        }
        let forwarder = Self.forwarder(client, clock: TestClock(), start: start)
        #expect(try await forwarder.run(heard) == 2)

        let requests = await client.requests
        #expect(requests.map(\.method) == [.get, .post, .post])
        #expect(requests.first?.url.path == "/v1/scanners/\(testScanner)/switch")
        #expect(requests.first?.url.query == "watched=\(WatchedTags.digest(of: []))")
        let batches = try requests.dropFirst().map { try JSONCoding.decoder().decode(SightingBatch.self, from: $0.body ?? Data()) }
        #expect(batches.allSatisfy { $0.scannerID == testScanner && $0.sightings.map(\.identity) == [bike] })
        #expect(batches.map { $0.sightings.first?.count } == [2, 1])
        #expect(batches.first?.sightings.first?.medianRSSI == -68)
        #expect(batches.first?.sightings.first?.windowEnd == start.addingTimeInterval(1))
    }

    @Test func withoutTheAllowListNothingIsForwarded() async throws {
        let client = ScriptedHTTPClient { _, _ in throw URLError(.cannotConnectToHost) }
        let forwarder = Self.forwarder(client, clock: TestClock(), start: Date(timeIntervalSince1970: 1_800_000_000))
        await #expect(throws: URLError.self) { try await forwarder.run(AsyncStream<[TrackHearing]> { $0.finish() }) }
        #expect(await client.requests.count == 1)
    }

    /// A tag heard once in a quiet room: no later advertisement closes its window, the clock does,
    /// a quarter second after the window's end, and the stream stays open all along.
    @Test func theClockClosesAWindowNoLaterAdvertisementCloses() async throws {
        let bike = TagIdentity.address(MACAddress(rawValue: 0x02_00_00_00_00_0B))
        let clock = TestClock()
        let start = Date(timeIntervalSince1970: 1_800_000_000.5)
        let wallClock = clock.wallClock(from: start)
        // When each post arrived on the driven clock: an event to wait for, not a duration.
        let (posted, postedAt) = AsyncStream.makeStream(of: Double.self)
        let client = ScriptedHTTPClient { request, _ in
            if request.method == .get {
                return try Self.switchAnswer(watching: [bike])
            }
            postedAt.yield(start.distance(to: wallClock()))
            return HTTPResponse(status: 201, body: try JSONCoding.encoder().encode(SightingReceipt(stored: 1, ignored: 0, positions: [])))
        }
        let (heard, continuation) = AsyncStream.makeStream(of: [TrackHearing].self)
        continuation.yield([TrackHearing(identities: [bike], rssi: -71, time: start.addingTimeInterval(0.1))])
        let running = Task { try await Self.forwarder(client, clock: clock, wallClock: wallClock).run(heard) }

        // The window [0, 0.5 s) closes 0.25 s after its end: not at 0.749 s, by 0.751 s. The clock
        // moves only once the forwarder sleeps on it, so how fast this machine runs cannot matter.
        await clock.sleeper()
        await clock.advance(by: .milliseconds(749))
        await clock.sleeper()
        #expect(await client.requests.count == 1, "nothing is sent before the window closes")
        await clock.advance(by: .milliseconds(2))
        var posts = posted.makeAsyncIterator()
        let elapsed = try #require(await posts.next())
        #expect(elapsed >= 0.75 && elapsed < 0.76, "closed 0.25 s after the window's end, \(elapsed) s in")
        let batch = try JSONCoding.decoder().decode(SightingBatch.self, from: await client.requests[1].body ?? Data())
        #expect(batch.sightings == [Sighting(
            identity: bike, windowStart: Date(timeIntervalSince1970: 1_800_000_000), windowEnd: Date(timeIntervalSince1970: 1_800_000_001),
            count: 1, medianRSSI: -71, maxRSSI: -71
        )])
        // Heard late, after its window was sent: dropped, not sent twice.
        continuation.yield([TrackHearing(identities: [bike], rssi: -60, time: start.addingTimeInterval(0.4))])
        continuation.finish()
        #expect(try await running.value == 1)
        #expect(await client.requests.count == 2)
    }

    /// SIGTERM while a window's post is under way (the post is cancelled): track mode stops, it
    /// does not fail. Whether the cancellation reaches the forwarder's loop as an error depends on
    /// which task sees it first, so this passes with or without TrackService's catch as often as
    /// not; the end-to-end TrackThroughScannerdTests caught the race under load (exit status 1,
    /// "Error: CancellationError()").
    @Test func aGracefulShutdownDuringAPostIsAStopNotAFailure() async throws {
        let bike = TagIdentity.address(MACAddress(rawValue: 0x02_00_00_00_00_0B))
        let client = ScriptedHTTPClient { request, _ in
            if request.method == .get {
                return try Self.switchAnswer(watching: [bike])
            }
            return try await heldUntilCancelled()
        }
        let clock = TestClock()
        let start = Date(timeIntervalSince1970: 1_800_000_000.5)
        // One advertisement, then a radio that throws when cancelled, as the real ones do.
        let first = TrackHearing(identities: [bike], rssi: -71, time: start.addingTimeInterval(0.1))
        let given = WaitableCount()
        let heard = AsyncThrowingStream<[TrackHearing], any Error> {
            given.add(1)
            guard given.value > 1 else { return [first] }
            try await clock.sleep(for: .seconds(3600))
            return nil
        }
        let service = TrackService(forwarder: Self.forwarder(client, clock: clock, start: start), hearings: heard, logger: quietLogger)
        let group = DaemonServiceGroup(services: [service], signals: [], logger: quietLogger)
        let running = Task { try await group.run() }
        await clock.step(by: .milliseconds(50)) { await client.requests.count == 2 }

        group.triggerGracefulShutdown()
        try await running.value
    }

    /// switchd's answer to a switch read with `watched=`: the list in `watchedTags`.
    static func switchAnswer(watching identities: [TagIdentity]) throws -> HTTPResponse {
        let scanSwitch = ScanSwitch(scannerID: testScanner, changedAt: Date(timeIntervalSince1970: 0), watchedTags: identities)
        return HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(scanSwitch))
    }

    static func forwarder(_ client: ScriptedHTTPClient, clock: TestClock<Duration>, start: Date) -> TrackForwarder {
        forwarder(client, clock: clock, wallClock: clock.wallClock(from: start))
    }

    static func forwarder(_ client: ScriptedHTTPClient, clock: TestClock<Duration>, wallClock: @escaping @Sendable () -> Date) -> TrackForwarder {
        var forwarder = TrackForwarder(
            api: SwitchdAPI(baseURL: URL(string: "http://switchd.invalid:8080")!, client: client), scannerID: testScanner, logger: quietLogger
        )
        forwarder.clock = clock
        forwarder.now = wallClock
        return forwarder
    }
}
