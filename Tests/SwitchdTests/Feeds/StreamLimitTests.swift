import Foundation
import Harness
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceLifecycle
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Live feeds are capped per token and per address, and when the connections are full a
/// scanner's request ends a reader's oldest stream instead of being refused: over real loopback HTTP.
@Suite("Streams: caps per token and address, scanners first when full", .timeLimit(.minutes(1)))
struct StreamLimitTests {
    static func app(_ database: AppDatabase, _ settings: Settings) -> some ApplicationProtocol {
        var quiet = Logger(label: "switchd-tests")
        quiet.logLevel = .critical
        return buildApplication(SwitchdDependencies(settings: settings, database: database, logger: quiet))
    }

    /// Runs switchd on a loopback port with no other client connected (the live test client
    /// holds a connection of its own, which the connection-limit test cannot have).
    static func withServer(
        _ database: AppDatabase, _ settings: Settings, logger: Logger, metrics: SwitchdMetrics, _ body: (_ port: Int) async throws -> Void
    ) async throws {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = buildApplication(SwitchdDependencies(
            settings: settings, database: database, logger: logger, metrics: metrics, onServerRunning: { portContinuation.yield($0) }
        ))
        let serviceGroup = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let run = Task { try await serviceGroup.run() }
        var portIterator = ports.makeAsyncIterator()
        let port = try #require(await portIterator.next())
        do {
            try await body(port)
        } catch {
            await serviceGroup.triggerGracefulShutdown()
            try? await run.value
            throw error
        }
        await serviceGroup.triggerGracefulShutdown()
        try await run.value
    }

    static func auth(_ token: String, closing: Bool = false) -> [String: String] {
        closing ? ["Authorization": "Bearer \(token)", "Connection": "close"] : ["Authorization": "Bearer \(token)"]
    }

    /// Opens a stream and expects it to start (200).
    static func held(port: Int, _ path: String, token: String) async throws -> HeldStream {
        let stream = try await HeldStream.open(port: port, path: path, headers: auth(token))
        let status = await stream.head()?.status
        #expect(status == 200, "\(path) should start")
        return stream
    }

    /// The whole answer to a request sent with `Connection: close`; only the head of a stream
    /// that starts (it would never end).
    static func answer(port: Int, _ path: String, token: String) async throws -> (status: Int?, text: String) {
        let request = try await HeldStream.open(port: port, path: path, headers: auth(token, closing: true))
        guard let head = await request.head() else { return (nil, "") }
        if head.text.contains("text/event-stream") {
            await request.close()
            return (head.status, head.text)
        }
        return (head.status, head.text + (await request.untilClosed()))
    }

    @Test func aTokenOrAnAddressOverItsCapGets429NamingTheCapAndScannersAreNotCountedByAddress() async throws {
        let database = try AppDatabase.inMemory()
        let readerA = try await issueToken(database, .reader)
        let visitorB = try await issueToken(database, .visitor)
        let scanner = try await issueToken(database, .scanner, scannerID: .default)
        var settings = Settings(host: "127.0.0.1", port: 0)
        settings.streamCaps = OpenStreams.Caps(perToken: 2, perAddress: 3)
        try await Self.app(database, settings).test(.live) { client in
            let port = try #require(client.port)
            var held = [
                try await Self.held(port: port, "/v1/positions/stream", token: readerA),
                try await Self.held(port: port, "/v1/stream", token: readerA),
            ]
            let overToken = try await Self.answer(port: port, "/v1/stream", token: readerA)
            #expect(overToken.status == 429)
            #expect(overToken.text.contains("\"too_many_streams\"") && overToken.text.contains("--max-streams-per-token"), "\(overToken.text)")

            held.append(try await Self.held(port: port, "/v1/stream?feeds=position", token: visitorB))
            let overAddress = try await Self.answer(port: port, "/v1/tags/1/positions/stream", token: visitorB)
            #expect(overAddress.status == 429)
            #expect(overAddress.text.contains("\"too_many_streams\"") && overAddress.text.contains("--max-streams-per-address"), "\(overAddress.text)")

            // A building's scanners may share an address: theirs are not counted against it.
            held.append(try await Self.held(port: port, "/v1/scanners/default/switch/stream", token: scanner))
            // Only streams are capped.
            #expect(try await Self.answer(port: port, "/v1/floors", token: readerA).status == 200)
            for stream in held { await stream.close() }
        }
    }

    /// The issue's case: readers' streams hold every connection (`--max-connections`), and a
    /// scanner's switch request was answered 503 `overloaded`; now it gets 200, the oldest
    /// reader's stream is ended, counted, and logged once.
    @Test func whenReadersHoldEveryConnectionAScannersRequestEndsTheOldestReaderStream() async throws {
        let database = try AppDatabase.inMemory()
        let reader = try await issueToken(database, .reader)
        let visitor = try await issueToken(database, .visitor)
        let scanner = try await issueToken(database, .scanner, scannerID: .default)
        let lines = TokenLoggingTests.LogLines()
        let logger = Logger(label: "switchd-tests") { _ in TokenLoggingTests.CollectingHandler(sink: lines) }
        let metrics = SwitchdMetrics()
        let limit = 4
        var settings = Settings(host: "127.0.0.1", port: 0)
        settings.maxConnections = limit
        try await Self.withServer(database, settings, logger: logger, metrics: metrics) { port in
            var streams: [HeldStream] = []
            for index in 0..<limit {
                streams.append(try await Self.held(port: port, "/v1/stream?feeds=position", token: index == 0 ? reader : visitor))
            }
            let switchAnswer = try await Self.answer(port: port, "/v1/scanners/default/switch", token: scanner)
            #expect(switchAnswer.status == 200, "the scanner's request under a full server: \(switchAnswer.text)")
            // The oldest stream is ended (its connection closed); reading it returns.
            if switchAnswer.status == 200 { _ = await streams[0].untilClosed() }
            let samples = PrometheusSamples(String(decoding: metrics.render(), as: UTF8.self))
            #expect(samples["switchd_streams_evicted_total"] == 1)
            #expect(lines.all.count { $0.contains("ending readers' oldest streams") } == 1, "\(lines.all)")
            for stream in streams { await stream.close() }
        }
    }

    /// A visitor token follows positions on `GET /v1/stream`, never readings or switches.
    @Test func aVisitorTokenFollowsPositionsOnlyOnTheLiveStream() async throws {
        let database = try AppDatabase.inMemory()
        let visitor = try await issueToken(database, .visitor)
        try await makeUnauthenticatedApp(database).test(.live) { client in
            let port = try #require(client.port)
            for path in ["/v1/stream?feeds=measurement", "/v1/stream?feeds=position,switch&scannerIDs=default"] {
                let refused = try await Self.answer(port: port, path, token: visitor)
                #expect(refused.status == 403, "\(path): \(refused.text)")
                #expect(refused.text.contains("visitor token follows positions only"), "\(refused.text)")
            }
            let followed = try await Self.held(port: port, "/v1/stream?feeds=position,tagPosition", token: visitor)
            await followed.close()
        }
    }
}
