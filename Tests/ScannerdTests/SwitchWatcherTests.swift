import Foundation
import ScanContract
import Testing
@testable import scannerd

/// The switch watcher against switchd's answers, scripted at the HTTP edge.
@Suite("Switch watcher")
struct SwitchWatcherTests {
    static let baseURL = URL(string: "http://switchd.invalid:8080")!

    func scanSwitch(_ revision: Int, scanning: Bool = true) -> ScanSwitch {
        ScanSwitch(scannerID: testScanner, scanning: scanning, mode: .locate, revision: revision, changedAt: Date(timeIntervalSince1970: 1_795_000_000))
    }

    func response(_ scanSwitch: ScanSwitch) throws -> HTTPResponse {
        HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(scanSwitch))
    }

    func watcher(_ directory: TemporaryDirectory, _ client: ScriptedHTTPClient, events: EventLog) -> (SwitchWatcher, AsyncStream<ScanSwitch>) {
        let (stream, continuation) = AsyncStream.makeStream(of: ScanSwitch.self)
        let watcher = SwitchWatcher(
            api: SwitchdAPI(baseURL: Self.baseURL, client: client), scannerID: testScanner,
            store: SwitchStore(path: directory.file("switch.json")), switches: continuation, events: events, logger: quietLogger
        )
        return (watcher, stream)
    }

    /// Holds a request until the test is over, as a long-poll with nothing to report does.
    static func hold() async throws -> HTTPResponse {
        try await Task.sleep(for: .seconds(3600))
        throw CancellationError()
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
        let (watcher, switches) = watcher(directory, client, events: events)
        let running = Task { try await watcher.run() }
        var received = switches.makeAsyncIterator()
        #expect(await received.next() == two)
        #expect(await received.next() == three)
        running.cancel()
        try await running.value

        let urls = await client.requests.map(\.url.absoluteString)
        #expect(urls.prefix(4) == [
            "http://switchd.invalid:8080/v1/scanners/test-scanner/switch",
            "http://switchd.invalid:8080/v1/scanners/test-scanner/switch",
            "http://switchd.invalid:8080/v1/scanners/test-scanner/switch?revision=2&wait=30",
            "http://switchd.invalid:8080/v1/scanners/test-scanner/switch?revision=2&wait=30",
        ])
        #expect(urls.last == "http://switchd.invalid:8080/v1/scanners/test-scanner/switch?revision=3&wait=30")
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
        let (watcher, switches) = watcher(directory, client, events: events)
        let running = Task { try await watcher.run() }
        var received = switches.makeAsyncIterator()
        #expect(await received.next() == saved)

        try await Task.sleep(for: .milliseconds(600))
        running.cancel()
        try await running.value
        let requests = await client.requests
        #expect(requests.first?.url.query == "revision=7&wait=30", "asks only for what changed since")
        // Backing off from 100 ms, doubling: far fewer attempts than a tight loop would make.
        #expect((2...6).contains(requests.count))
        #expect(try EventLogReader(path: directory.file("events.jsonl")).events("switch").isEmpty)
    }

    @Test func anotherScannersSavedSwitchIsIgnored() async throws {
        let directory = try TemporaryDirectory()
        var saved = scanSwitch(4)
        saved.scannerID = try ScannerID("someone-else")
        try SwitchStore(path: directory.file("switch.json")).save(saved)
        let fresh = scanSwitch(1, scanning: false)
        let client = ScriptedHTTPClient { [self] _, index in index == 0 ? try response(fresh) : try await Self.hold() }
        let (watcher, switches) = watcher(directory, client, events: .disabled(logger: quietLogger))
        let running = Task { try await watcher.run() }
        var received = switches.makeAsyncIterator()
        #expect(await received.next() == fresh)
        running.cancel()
        try await running.value
        #expect(await client.requests.first?.url.query == nil)
    }
}
