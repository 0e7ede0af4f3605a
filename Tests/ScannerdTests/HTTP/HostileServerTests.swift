import Clocks
import Foundation
import ScanContract
import Testing
@testable import scannerd

/// The real HTTP client against a loopback server that lies: answers without end, answers that
/// trickle, answers larger than anything switchd sends.
@Suite("HTTP client against a hostile server", .timeLimit(.minutes(1)))
struct HostileServerTests {
    static let gibibyte = 1 << 30
    static let limit = 1 << 20
    /// What the kernel's socket buffers and libcurl's read buffer may take beyond what the client
    /// keeps: loopback TCP buffers grow to a few MiB each way.
    static let bufferSlack = 32 << 20

    @Test(arguments: [false, true])
    func aGibibyteAnswerFailsAtTheLimitHavingReadLittle(declaringLength: Bool) async throws {
        let server = try LoopbackHTTPServer(replying: { _ in .stream(length: Self.gibibyte, declaringLength: declaringLength) })
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/v1/radiomap")!
        await #expect {
            try await CurlHTTPClient().send(HTTPRequest(.get, url, timeout: .seconds(60), answerLimit: Self.limit))
        } throws: { error in
            (error as? HTTPAnswerTooLargeError)?.limit == Self.limit
        }
        await server.streamsFinished.reached(1)
        #expect(server.bytesStreamed < Self.limit + Self.bufferSlack, "read \(server.bytesStreamed) bytes of \(Self.gibibyte)")
        if declaringLength {
            #expect(server.bytesStreamed < Self.bufferSlack, "a declared length over the limit ends it before the body")
        }
    }

    @Test func everySwitchdAnswerIsBounded() async throws {
        let server = try LoopbackHTTPServer(replying: { _ in .stream(length: Self.gibibyte, declaringLength: false) })
        defer { server.stop() }
        let api = SwitchdAPI(
            baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, client: CurlHTTPClient(), radioMapLimit: 2 * Self.limit
        )
        await #expect {
            _ = try await api.radioMap(ifNoneMatch: nil)
        } throws: { error in
            (error as? HTTPAnswerTooLargeError)?.limit == 2 * Self.limit
        }
        await #expect {
            _ = try await api.scanSwitch(of: .default, afterRevision: nil, wait: .seconds(1))
        } throws: { error in
            (error as? HTTPAnswerTooLargeError)?.limit == HTTPRequest.smallAnswerLimit
        }
        await #expect(throws: HTTPAnswerTooLargeError.self) {
            _ = try await api.postBatch(Data("{}".utf8))
        }
        await server.streamsFinished.reached(3)
        #expect(server.bytesStreamed < 3 * (2 * Self.limit + Self.bufferSlack))
    }

    /// A few bytes now and then: no idle timeout fires, since bytes keep coming, but the client's
    /// deadline does. The test paces the server and moves the deadline's clock.
    @Test func aTricklingAnswerFailsAtTheDeadline() async throws {
        let server = try LoopbackHTTPServer(replying: { _ in
            .stream(length: 16 * 1024, declaringLength: true, chunk: 8, paced: true)
        })
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/v1/scanners/default/switch")!
        let clock = TestClock()
        let client = CurlHTTPClient(deadline: { _ in .milliseconds(500) }, clock: clock)
        let request = Task { try await client.send(HTTPRequest(.get, url, timeout: .seconds(600))) }
        await server.chunksSent.reached(1)
        server.releaseChunks(3)
        await server.chunksSent.reached(4)
        await clock.sleeper()
        await clock.advance(by: .milliseconds(499))
        server.releaseChunks(1)
        await server.chunksSent.reached(5)
        await clock.advance(by: .milliseconds(1))
        await #expect {
            try await request.value
        } throws: { error in
            (error as? HTTPTransportError)?.code == .timedOut
        }
    }
}
