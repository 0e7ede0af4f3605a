import Clocks
import Foundation
import Harness
import ScanContract
import Testing
@testable import scannerd

/// The switch watcher against switchd's answers, scripted at the HTTP edge, its retry delays on
/// a clock the test advances.
@Suite("Switch watcher", .timeLimit(.minutes(3)))
struct SwitchWatcherTests {
    static let baseURL = URL(string: "http://switchd.invalid:8080")!

    func scanSwitch(_ revision: Int, scanning: Bool = true) -> ScanSwitch {
        ScanSwitch(scannerID: testScanner, scanning: scanning, mode: .locate, revision: revision, changedAt: Date(timeIntervalSince1970: 1_795_000_000))
    }

    func response(_ scanSwitch: ScanSwitch) throws -> HTTPResponse {
        HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(scanSwitch))
    }

    func watcher(
        _ directory: TemporaryDirectory, _ client: ScriptedHTTPClient, events: EventLog, clock: TestClock<Duration>
    ) -> (SwitchWatcher, AsyncStream<ScanSwitch>) {
        let (stream, continuation) = AsyncStream.makeStream(of: ScanSwitch.self)
        let watcher = SwitchWatcher(
            api: SwitchdAPI(baseURL: Self.baseURL, client: client), scannerID: testScanner,
            store: SwitchStore(path: directory.file("switch.json")), switches: continuation, events: events, logger: quietLogger,
            clock: clock
        )
        return (watcher, stream)
    }

    /// Holds a request until the test is over, as a long-poll with nothing to report does.
    static func hold() async throws -> HTTPResponse {
        try await heldUntilCancelled()
    }

    @Test func newRevisionsAreHandedOnLoggedAndSaved() async throws {
        let directory = try TemporaryDirectory()
        let events = try EventLog(.file(directory.file("events.jsonl")), logger: quietLogger)
        let two = scanSwitch(2), three = scanSwitch(3, scanning: false)
        let client = ScriptedHTTPClient { [self] _, index in
            switch index {
            case 0: return try errorResponse(404, code: "not_found", message: "no scanner test-scanner")
            case 1: return try response(two)
            case 2: return try response(two) // the long-poll's wait passed without a change
            case 3: return try response(three)
            default: return try await Self.hold()
            }
        }
        let clock = TestClock()
        let (watcher, switches) = watcher(directory, client, events: events, clock: clock)
        let running = Task { try await watcher.run() }
        var received = switches.makeAsyncIterator()
        await clock.sleeper() // backing off after the 404
        #expect(await client.requests.count == 1)
        await clock.advance(by: SwitchWatcher.maximumRetryDelay)
        #expect(await received.next() == two)
        #expect(await received.next() == three)
        running.cancel()
        try await running.value

        let urls = await client.requests.map(\.url.absoluteString)
        #expect(urls.prefix(4) == [
            "http://switchd.invalid:8080/v1/scanners/test-scanner/switch",
            "http://switchd.invalid:8080/v1/scanners/test-scanner/switch",
            "http://switchd.invalid:8080/v1/scanners/test-scanner/switch?revision=2&wait=30&settings=0",
            "http://switchd.invalid:8080/v1/scanners/test-scanner/switch?revision=2&wait=30&settings=0",
        ])
        #expect(urls.last == "http://switchd.invalid:8080/v1/scanners/test-scanner/switch?revision=3&wait=30&settings=0")
        let logged = try EventLogReader(path: directory.file("events.jsonl")).events("switch")
        #expect(logged.map { $0["revision"] as? Int } == [2, 3])
        #expect(logged.map { $0["scanning"] as? Bool } == [true, false])
        #expect(logged.allSatisfy { $0["mode"] as? String == "locate" })
        #expect(try SwitchStore(path: directory.file("switch.json")).load() == three)
    }

    @Test func aRestartWithoutSwitchdResumesTheSavedSwitch() async throws {
        let directory = try TemporaryDirectory()
        let saved = scanSwitch(7)
        try SwitchStore(path: directory.file("switch.json")).save(saved)
        let client = ScriptedHTTPClient { _, _ in throw URLError(.cannotConnectToHost) }
        let events = try EventLog(.file(directory.file("events.jsonl")), logger: quietLogger)
        let clock = TestClock()
        let (watcher, switches) = watcher(directory, client, events: events, clock: clock)
        let running = Task { try await watcher.run() }
        var received = switches.makeAsyncIterator()
        #expect(await received.next() == saved)

        // Each failure waits for a delay drawn from the upper half of 100 ms doubling to 5 s: the
        // clock moves 5 ms at a time, the watcher asleep again at each step, and the moments of
        // the retries are noted.
        let step = Duration.milliseconds(10)
        await clock.sleeper()
        let start = clock.now
        var sentAt: [Duration] = [.zero]
        while sentAt.count < 9 {
            await clock.advance(by: step)
            await clock.sleeper()
            if await client.requests.count > sentAt.count { sentAt.append(start.duration(to: clock.now)) }
        }
        running.cancel()
        try await running.value
        var ceiling = SwitchWatcher.initialRetryDelay
        for (earlier, later) in zip(sentAt, sentAt.dropFirst()) {
            let gap = later - earlier
            #expect(gap >= ceiling / 2 - step && gap <= ceiling + step, "a retry \(gap) after the one before, backing off up to \(ceiling)")
            ceiling = min(ceiling * 2, SwitchWatcher.maximumRetryDelay)
        }
        let requests = await client.requests
        #expect(requests.count == 9)
        #expect(requests.allSatisfy { $0.url.query == "revision=7&wait=30&settings=0" }, "asks only for what changed since")
        #expect(try EventLogReader(path: directory.file("events.jsonl")).events("switch").isEmpty)
    }

    @Test func anotherScannersSavedSwitchIsIgnored() async throws {
        let directory = try TemporaryDirectory()
        var saved = scanSwitch(4)
        saved.scannerID = try ScannerID("someone-else")
        try SwitchStore(path: directory.file("switch.json")).save(saved)
        let fresh = scanSwitch(1, scanning: false)
        let client = ScriptedHTTPClient { [self] _, index in index == 0 ? try response(fresh) : try await Self.hold() }
        let (watcher, switches) = watcher(directory, client, events: .disabled(logger: quietLogger), clock: TestClock())
        let running = Task { try await watcher.run() }
        var received = switches.makeAsyncIterator()
        #expect(await received.next() == fresh)
        running.cancel()
        try await running.value
        #expect(await client.requests.first?.url.query == nil)
    }

    /// Watched tags come with the switch: a change of the list alone goes to the listening role,
    /// not to the scan controller (no new revision), and each long-poll names the list held.
    @Test func aNewWatchedTagListAloneGoesToTheListeningRole() async throws {
        let directory = try TemporaryDirectory()
        let bike = TagIdentity.address(MACAddress(rawValue: 0x02_00_00_00_00_0B))
        let keys = TagIdentity.address(MACAddress(rawValue: 0x02_00_00_00_00_0C))
        var listing = scanSwitch(2)
        listing.watchedTags = [bike]
        let first = listing
        listing.watchedTags = [bike, keys]
        let second = listing
        let client = ScriptedHTTPClient { [self] _, index in
            switch index {
            case 0: return try response(first)
            case 1: return try response(second)
            default: return try await Self.hold()
            }
        }
        let (watcher, switches, switchContinuation, lists) = try listeningWatcher(client, directory)
        let running = Task { try await watcher.run() }
        var received = lists.makeAsyncIterator()
        #expect(await received.next() == [bike])
        #expect(await received.next() == [bike, keys])
        running.cancel()
        try await running.value
        switchContinuation.finish()
        var revisions: [Int] = []
        for await scanSwitch in switches { revisions.append(scanSwitch.revision) }
        #expect(revisions == [2], "the same revision is not handed on twice")
        let urls = await client.requests.map(\.url.absoluteString)
        #expect(urls[0] == "http://switchd.invalid:8080/v1/scanners/test-scanner/switch?watched=\(WatchedTags.digest(of: []))")
        #expect(urls[1] == "http://switchd.invalid:8080/v1/scanners/test-scanner/switch?revision=2&wait=30&settings=0&watched=\(WatchedTags.digest(of: [bike]))")
        #expect(urls[2].hasSuffix("&watched=\(WatchedTags.digest(of: [keys, bike]))"), "the digest does not depend on order")
        #expect(try SwitchStore(path: directory.file("switch.json")).load() == second)
    }

    /// A phone's key that arrives for a fingerprint the scanner already watches (a switchd whose
    /// tag-keys.key could not open it answered before) is a new list: handed on with the key, and
    /// the next long-poll names the keyed list, so switchd does not answer it again.
    @Test func aKeyArrivingForAWatchedPhoneIsANewList() async throws {
        let directory = try TemporaryDirectory()
        let key = IdentityResolvingKey(bytes: Array(0..<16))
        let phone = TagIdentity.irk(IRKIdentity(fingerprint: "00112233aabbccdd"))
        var listing = scanSwitch(2)
        listing.watchedTags = [phone]
        let withoutKey = listing
        listing.watchedKeys = [WatchedKey(fingerprint: "00112233aabbccdd", key: key)]
        let withKey = listing
        let client = ScriptedHTTPClient { [self] _, index in
            switch index {
            case 0: return try response(withoutKey)
            case 1: return try response(withKey)
            default: return try await Self.hold()
            }
        }
        let (watcher, _, switchContinuation, lists) = try listeningWatcher(client, directory)
        let running = Task { try await watcher.run() }
        var received = lists.makeAsyncIterator()
        let first = try #require(await received.next())
        guard case .irk(let unkeyed) = try #require(first.first) else { Issue.record("not an irk identity"); return }
        #expect(unkeyed.key == nil)
        let second = try #require(await received.next())
        guard case .irk(let keyed) = try #require(second.first) else { Issue.record("not an irk identity"); return }
        #expect(keyed.key == key, "the same fingerprint, now with its key")
        running.cancel()
        try await running.value
        switchContinuation.finish()
        let urls = await client.requests.map(\.url.absoluteString)
        #expect(WatchedTags.digest(of: [phone]) != WatchedTags.digest(of: [phone], keyed: ["00112233aabbccdd"]))
        #expect(urls[1].hasSuffix("&watched=\(WatchedTags.digest(of: [phone]))"))
        #expect(urls[2].hasSuffix("&watched=\(WatchedTags.digest(of: [phone], keyed: ["00112233aabbccdd"]))"))
    }

    /// A watcher of a listening scanner (its watched lists handed on) over `client`, saving to `directory`.
    private func listeningWatcher(_ client: ScriptedHTTPClient, _ directory: TemporaryDirectory) throws -> (
        SwitchWatcher, AsyncStream<ScanSwitch>, AsyncStream<ScanSwitch>.Continuation, AsyncStream<[TagIdentity]>
    ) {
        let (switches, switchContinuation) = AsyncStream.makeStream(of: ScanSwitch.self)
        let (lists, listContinuation) = AsyncStream.makeStream(of: [TagIdentity].self)
        let watcher = SwitchWatcher(
            api: SwitchdAPI(baseURL: Self.baseURL, client: client), scannerID: testScanner,
            store: SwitchStore(path: directory.file("switch.json")), switches: switchContinuation,
            events: try EventLog(.none, logger: quietLogger), logger: quietLogger, clock: TestClock(), watchLists: listContinuation
        )
        return (watcher, switches, switchContinuation, lists)
    }
}
