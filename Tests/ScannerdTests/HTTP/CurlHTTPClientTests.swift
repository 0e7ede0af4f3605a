import Clocks
import Foundation
import ScanContract
import Testing
@testable import scannerd

/// The real HTTP client against a real socket on loopback. "At once" and "at the deadline" are
/// checked without a clock: the request's own timeout is set past the suite's time limit, so a
/// request that only that timeout would end fails the test.
@Suite("HTTP client", .timeLimit(.minutes(1)))
struct CurlHTTPClientTests {
    /// Longer than the suite's time limit.
    static let beyondTheTimeLimit: Duration = .seconds(600)

    @Test func postsTheBodyAndReturnsTheAnswer() async throws {
        let server = try LoopbackHTTPServer { request in (201, Data("{\"got\":\(request.body.count)}".utf8)) }
        defer { server.stop() }
        let body = Data(repeating: UInt8(ascii: "x"), count: 300_000)
        let url = URL(string: "http://127.0.0.1:\(server.port)/v1/measurements")!
        let response = try await CurlHTTPClient().send(HTTPRequest(.post, url, body: body, timeout: Self.beyondTheTimeLimit))
        #expect(response.status == 201)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"got\":300000}")
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/v1/measurements")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["expect"] == nil, "no 100-continue round trip before the body")
        #expect(request.body == body)
    }

    @Test func anErrorStatusIsAnAnswerNotAFailure() async throws {
        let server = try LoopbackHTTPServer { _ in (503, Data("{}".utf8)) }
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/healthz")!
        let response = try await CurlHTTPClient().send(HTTPRequest(.get, url, timeout: Self.beyondTheTimeLimit))
        #expect(response.status == 503)
    }

    @Test func cancellingEndsAHeldRequestAtOnce() async throws {
        let server = try LoopbackHTTPServer { _ in nil }
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/v1/scanners/default/switch?revision=1&wait=30")!
        let client = CurlHTTPClient()
        let request = Task { try await client.send(HTTPRequest(.get, url, timeout: Self.beyondTheTimeLimit)) }
        await server.requestsArrived.reached(1)
        request.cancel()
        await #expect(throws: CancellationError.self) { try await request.value }
    }

    @Test func aTaskCancelledBeforeItAsksSendsNothing() async throws {
        let server = try LoopbackHTTPServer { _ in (200, Data()) }
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/healthz")!
        let request = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await CurlHTTPClient().send(HTTPRequest(.get, url, timeout: Self.beyondTheTimeLimit))
        }
        await #expect(throws: CancellationError.self) { try await request.value }
        // A request after it, over the same shared connection pool, is answered: one sent by the
        // cancelled task would have gone out before it.
        let after = URL(string: "http://127.0.0.1:\(server.port)/after")!
        #expect(try await CurlHTTPClient().send(HTTPRequest(.get, after, timeout: Self.beyondTheTimeLimit)).status == 200)
        #expect(server.requests.map(\.target) == ["/after"])
    }

    /// The request's own timeout normally ends a silent exchange; the client's deadline is the
    /// backstop for a transfer that never finishes, and here it is made to come first.
    @Test func aSilentServerFailsTheRequestAtTheDeadline() async throws {
        let server = try LoopbackHTTPServer { _ in nil }
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/v1/scanners/default/switch?revision=1&wait=30")!
        let clock = TestClock()
        let client = CurlHTTPClient(deadline: { _ in .milliseconds(500) }, clock: clock)
        let request = Task { try await client.send(HTTPRequest(.get, url, timeout: Self.beyondTheTimeLimit)) }
        await server.requestsArrived.reached(1)
        await clock.sleeper()
        await clock.advance(by: .milliseconds(500))
        await #expect {
            try await request.value
        } throws: { error in
            (error as? HTTPTransportError)?.code == .timedOut
        }
    }

    @Test func aRefusedConnectionThrows() async throws {
        let server = try LoopbackHTTPServer { _ in (200, Data()) }
        let port = server.port
        server.stop()
        let url = URL(string: "http://127.0.0.1:\(port)/healthz")!
        await #expect(throws: (any Error).self) {
            try await CurlHTTPClient().send(HTTPRequest(.get, url, timeout: Self.beyondTheTimeLimit))
        }
    }

    @Test func theSwitchdAPIDecodesASwitch() async throws {
        let current = ScanSwitch(scannerID: .default, scanning: true, mode: .survey, locationID: 4, storeData: true, revision: 5, changedAt: Date(timeIntervalSince1970: 1_795_000_000))
        let body = try JSONCoding.encoder().encode(current)
        let server = try LoopbackHTTPServer { _ in (200, body) }
        defer { server.stop() }
        let api = SwitchdAPI(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, client: CurlHTTPClient())
        #expect(try await api.scanSwitch(of: .default, afterRevision: 4, wait: .seconds(30)) == current)
        #expect(server.requests.first?.target == "/v1/scanners/default/switch?revision=4&wait=30")
    }
}

/// Connections to switchd stay open between requests: a Pi posting every few seconds does not
/// connect (or shake hands over TLS) each time.
@Suite("HTTP client connection reuse", .timeLimit(.minutes(1)))
struct CurlConnectionReuseTests {
    @Test func postsInTurnShareOneConnection() async throws {
        let server = try LoopbackHTTPServer(keepingAlive: true) { request in .answer(status: 201, body: request.body) }
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/v1/measurements")!
        let client = CurlHTTPClient()
        for index in 0..<3 {
            let body = Data("{\"batch\":\(index)}".utf8)
            let response = try await client.send(HTTPRequest(.post, url, body: body, timeout: CurlHTTPClientTests.beyondTheTimeLimit))
            #expect(response.body == body)
        }
        #expect(server.requests.count == 3)
        #expect(server.connectionsAccepted == 1)
    }
}
