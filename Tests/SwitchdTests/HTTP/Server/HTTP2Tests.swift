import AsyncHTTPClient
import Foundation
import Harness
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import Testing
@testable import switchd
@testable import SwitchdStore

/// switchd with a certificate speaks HTTP/2 to clients whose ALPN offers it, HTTP/1.1 to the
/// others; an HTTP/2 connection carries many streams and counts once against the limit.
@Suite(.timeLimit(.minutes(1))) struct HTTP2Tests {
    /// A TLS switchd on loopback with a fresh self-signed certificate; `body` gets its base URL,
    /// the certificate's path and an admin token.
    static func withTLSSwitchd(_ body: (String, String, String) async throws -> Void) async throws {
        let database = try AppDatabase.inMemory()
        let token = try await issueToken(database, .admin)
        try await withTLSSwitchd(database: database) { base, certificate in try await body(base, certificate, token) }
    }

    /// As above with `settings` and `database`, and an in-memory metrics registry.
    static func withTLSSwitchd(
        settings: Settings = Settings(host: "127.0.0.1", port: 0), database: AppDatabase, metrics: SwitchdMetrics = SwitchdMetrics(),
        _ body: (String, String) async throws -> Void
    ) async throws {
        let folder = try TemporaryFolder("h2")
        defer { folder.remove() }
        let certificate = try await SelfSignedCertificate.make("switchd", in: folder)
        let tls = try TLSFiles(certificatePath: certificate.certificatePath, keyPath: certificate.keyPath).makeContext()
        var logger = Logger(label: "switchd-tests")
        logger.logLevel = .critical
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = buildApplication(SwitchdDependencies(settings: settings, database: database, logger: logger, metrics: metrics, tls: tls) { port in
            portContinuation.yield(port)
        })
        let serviceGroup = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await serviceGroup.run() }
            var portIterator = ports.makeAsyncIterator()
            let port = try #require(await portIterator.next())
            do {
                try await body("https://127.0.0.1:\(port)", certificate.certificatePath)
            } catch {
                await serviceGroup.triggerGracefulShutdown()
                throw error
            }
            await serviceGroup.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    /// A client that trusts `certificate`, with connections of its own, shut down after `body`;
    /// `.automatic` offers HTTP/2 by ALPN, `.http1Only` offers HTTP/1.1 only.
    static func withClient(
        trusting certificate: String, httpVersion: HTTPClient.Configuration.HTTPVersion = .automatic, _ body: (HTTPClient) async throws -> Void
    ) async throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = httpVersion
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            try await body(client)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    static func get(_ client: HTTPClient, _ url: String, token: String) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        return try await client.execute(request, timeout: .seconds(30))
    }

    @Test func aClientOfferingH2GetsHTTP2AndOneAskingForHTTP1GetsHTTP1() async throws {
        try await Self.withTLSSwitchd { base, certificate, token in
            try await Self.withClient(trusting: certificate) { client in
                let response = try await Self.get(client, "\(base)/v1/floors", token: token)
                #expect(response.status == .ok)
                #expect(response.version == .http2)
            }

            // Not curl: a child process read from this process would hold the cooperative
            // threads this switchd answers on.
            try await Self.withClient(trusting: certificate, httpVersion: .http1Only) { client in
                let response = try await Self.get(client, "\(base)/v1/floors", token: token)
                #expect(response.status == .ok)
                #expect(response.version == .http1_1)
            }
        }
    }

    /// Nine live feeds and plain requests beside them share one HTTP/2 connection, which the
    /// connection table counts once (over HTTP/1.1 a client would need ten connections, and a
    /// browser, allowing six, would leave the tenth request waiting forever).
    @Test func liveFeedsAndRequestsShareOneConnectionCountedOnce() async throws {
        try await Self.withTLSSwitchd { base, certificate, token in
            try await Self.withClient(trusting: certificate) { client in
                var feeds: [HTTPClientResponse] = []
                for _ in 0..<9 {
                    let feed = try await Self.get(client, "\(base)/v1/stream?feeds=tagPosition", token: token)
                    #expect(feed.status == .ok && feed.version == .http2)
                    feeds.append(feed)
                }
                let floors = try await Self.get(client, "\(base)/v1/floors", token: token)
                #expect(floors.status == .ok, "a request beside nine open feeds is answered")
                let metrics = try await Self.get(client, "\(base)/metrics", token: token)
                let samples = PrometheusSamples(String(buffer: try await metrics.body.collect(upTo: 1 << 20)))
                #expect(samples["switchd_connections_open"] == 1, "one connection for every stream")
                withExtendedLifetime(feeds) {}
            }
        }
    }

    /// Issue 36, item 4 over HTTP/2: a reader's token holding streams on one multiplexed connection
    /// is capped per token (429 `too_many_streams`), and once readers' connections fill
    /// `--max-connections` a scanner's switch long-poll is served (its answer 200, never 503
    /// `overloaded`): the reader's oldest stream is ended with the HTTP/2 connection under it.
    @Test func readersHoldingStreamsOverHTTP2CannotKeepAScannersLongPollOut() async throws {
        let database = try AppDatabase.inMemory()
        let reader = try await issueToken(database, .reader)
        let visitor = try await issueToken(database, .visitor)
        let scanner = try await issueToken(database, .scanner, scannerID: .default)
        var settings = Settings(host: "127.0.0.1", port: 0)
        settings.maxConnections = 2
        settings.streamCaps = OpenStreams.Caps(perToken: 3, perAddress: 6)
        let metrics = SwitchdMetrics()
        try await Self.withTLSSwitchd(settings: settings, database: database, metrics: metrics) { base, certificate in
            try await Self.withClient(trusting: certificate) { readerClient in
                try await Self.withClient(trusting: certificate) { visitorClient in
                    var feeds: [HTTPClientResponse] = []
                    for _ in 0..<3 {
                        let feed = try await Self.get(readerClient, "\(base)/v1/stream?feeds=position", token: reader)
                        #expect(feed.status == .ok && feed.version == .http2)
                        feeds.append(feed)
                    }
                    let overCap = try await Self.get(readerClient, "\(base)/v1/stream?feeds=position", token: reader)
                    #expect(overCap.status == .tooManyRequests)
                    let refusal = String(buffer: try await overCap.body.collect(upTo: 1 << 16))
                    #expect(refusal.contains("too_many_streams") && refusal.contains("--max-streams-per-token"), "\(refusal)")
                    for _ in 0..<3 {
                        let feed = try await Self.get(visitorClient, "\(base)/v1/stream?feeds=position", token: visitor)
                        #expect(feed.status == .ok && feed.version == .http2)
                        feeds.append(feed)
                    }
                    // Two HTTP/2 connections now fill --max-connections 2.
                    try await Self.withClient(trusting: certificate) { scannerClient in
                        let longPoll = try await Self.get(scannerClient, "\(base)/v1/scanners/default/switch?wait=0", token: scanner)
                        #expect(longPoll.status == .ok, "the scanner's long-poll beside readers' full connections")
                        #expect(longPoll.version == .http2)
                    }
                    // The reader's oldest stream was ended with its connection: its body ends.
                    var ended = feeds[0].body.makeAsyncIterator()
                    while (try? await ended.next()) != nil {}
                    let samples = PrometheusSamples(String(decoding: metrics.render(), as: UTF8.self))
                    #expect(samples["switchd_streams_evicted_total"] == 1)
                    withExtendedLifetime(feeds) {}
                }
            }
        }
    }
}
