import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The fleet's HTTP client: one connection pool on loopback that opens as many connections as
/// there are requests in flight (each simulated scanner holds its long-poll and its upload on
/// connections of their own, as scannerd does).
final class FleetHTTP: Sendable {
    let baseURL: String
    private let client: HTTPClient

    struct Answer: Sendable {
        var status: Int
        var body: Data
        var retryAfter: String?
    }

    init(baseURL: URL, connections: Int) {
        self.baseURL = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(120), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        configuration.timeout = .init(connect: .seconds(30), read: .seconds(120))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends one request; throws only when no answer came.
    func send(_ method: HTTPMethod, _ path: String, token: String, body: Data? = nil, timeout: Duration = .seconds(120)) async throws -> Answer {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000))
        let buffer = try await response.body.collect(upTo: 1 << 20)
        return Answer(status: Int(response.status.code), body: Data(buffer.readableBytesView), retryAfter: response.headers.first(name: "Retry-After"))
    }

    /// Sends one request until it is answered with something other than 503/429: again after the
    /// `Retry-After` such an answer names, or after a second when the connection closed before
    /// any answer (a switchd out of descriptors closes idle connections to make room); at most
    /// `attempts` times. Returns the last answer and how many times the request was sent, so a
    /// caller can tell a 409 caused by its own earlier attempt.
    ///
    /// - Throws: the last error when no attempt was answered.
    func sendRetrying(
        _ method: HTTPMethod, _ path: String, token: String, body: Data? = nil, attempts: Int = 10
    ) async throws -> (answer: Answer, sent: Int) {
        var sent = 0
        while true {
            sent += 1
            do {
                let answer = try await send(method, path, token: token, body: body)
                guard answer.status == 503 || answer.status == 429, sent < attempts else { return (answer, sent) }
                try await Task.sleep(for: .seconds(answer.retryAfter.flatMap(Int.init) ?? 1))
            } catch {
                if sent >= attempts || Task.isCancelled { throw error }
                try await Task.sleep(for: .seconds(1))
            }
        }
    }

    func shutdown() async throws {
        try await client.shutdown()
    }
}

/// Runs `body` with a ``FleetHTTP`` that is shut down afterwards, whether `body` throws or not.
func withFleetHTTP<T>(baseURL: URL, connections: Int, _ body: (FleetHTTP) async throws -> T) async throws -> T {
    let http = FleetHTTP(baseURL: baseURL, connections: connections)
    do {
        let value = try await body(http)
        try await http.shutdown()
        return value
    } catch {
        try? await http.shutdown()
        throw error
    }
}
