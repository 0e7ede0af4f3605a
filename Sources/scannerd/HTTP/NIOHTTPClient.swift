import AsyncHTTPClient
import DaemonSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import NIOSSL

/// ``HTTPClient`` over AsyncHTTPClient (SwiftNIO), sharing its process-wide client.
///
/// The answer's body is read as it arrives, with backpressure, and never past the request's
/// `answerLimit`: a declared `Content-Length` over it fails the request before any body is read,
/// and a body that grows past it fails the request at that point and closes the connection, so a
/// server sending without end costs scannerd neither memory nor bandwidth. (URLSession on Linux
/// could not do this: libcurl went on reading a cancelled transfer to its end.)
///
/// Each request ends at the first of: the answer read whole, the answer over its limit, the
/// calling task's cancellation (`CancellationError`), or a deadline a little past the request's
/// timeout, which also covers a body that trickles in a few bytes at a time.
///
/// `https://` switchd addresses are verified against the system's trust store, or, given a CA
/// file, against the certificates in that file only (the building's CA, or switchd's own
/// self-signed certificate, which then acts as a pin).
struct NIOHTTPClient: HTTPClient {
    private let client: AsyncHTTPClient.HTTPClient
    private let ownsClient: Bool
    private let deadline: @Sendable (Duration) -> Duration
    private let clock: any Clock<Duration>

    /// - Parameters:
    ///   - deadline: how long a request with the given timeout may take in all, body included,
    ///     before it fails as timed out.
    ///   - clock: what that deadline is measured on.
    init(deadline: @escaping @Sendable (Duration) -> Duration = { $0 + .seconds(5) }, clock: any Clock<Duration> = ContinuousClock()) {
        client = .shared
        ownsClient = false
        self.deadline = deadline
        self.clock = clock
    }

    /// A client that trusts only the certificates in the PEM file at `caFile` for `https://`.
    /// Call ``shutdown()`` once done with it.
    ///
    /// - Throws: ``CAFileError`` when the file cannot be read or holds no PEM certificate.
    init(caFile: String, deadline: @escaping @Sendable (Duration) -> Duration = { $0 + .seconds(5) }) throws {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(caFile)
        } catch {
            throw CAFileError(path: caFile, reason: "\(error)")
        }
        guard !certificates.isEmpty else { throw CAFileError(path: caFile, reason: "it holds no PEM certificate") }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(certificates)
        client = AsyncHTTPClient.HTTPClient(
            eventLoopGroup: AsyncHTTPClient.HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClient.HTTPClient.Configuration(tlsConfiguration: tls)
        )
        ownsClient = true
        self.deadline = deadline
        clock = ContinuousClock()
    }

    /// Closes the connections of a client made with a CA file; the shared client needs nothing.
    func shutdown() async throws {
        if ownsClient { try await client.shutdown() }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let limit = deadline(request.timeout)
        let answer = try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
            group.addTask { try await exchange(request) }
            group.addTask {
                try await clock.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            do {
                return try await group.next() ?? nil
            } catch {
                if Task.isCancelled { throw CancellationError() }
                throw error
            }
        }
        guard let answer else {
            throw HTTPTransportError(code: .timedOut, reason: "no whole answer from \(request.url.host ?? "the server") within \(limit)")
        }
        return answer
    }

    private func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(Self.clientRequest(for: request), deadline: .now() + .nanoseconds(request.timeout.nanoseconds))
        } catch let error as HTTPClientError {
            throw HTTPTransportError(error)
        }
        do {
            let body = try await response.body.collect(upTo: request.answerLimit)
            return HTTPResponse(status: Int(response.status.code), body: Data(body.readableBytesView), headers: Self.headers(of: response))
        } catch is NIOTooManyBytesError {
            throw HTTPAnswerTooLargeError(url: request.url, limit: request.answerLimit)
        } catch let error as HTTPClientError {
            throw HTTPTransportError(error)
        }
    }

    static func clientRequest(for request: HTTPRequest) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers.add(name: "Accept", value: "application/json")
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
            outgoing.headers.add(name: "Content-Type", value: "application/json")
        }
        for (name, value) in request.headers {
            outgoing.headers.replaceOrAdd(name: name, value: value)
        }
        return outgoing
    }

    /// Response headers, names in lower case.
    static func headers(of response: HTTPClientResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.headers {
            headers[name.lowercased()] = value
        }
        return headers
    }
}

/// The request did not get an answer: refused, reset, timed out, name not found.
struct HTTPTransportError: Error, CustomStringConvertible {
    enum Code: Sendable {
        case timedOut
        case networkConnectionLost
        case cannotLoadFromNetwork
    }

    let code: Code
    /// What went wrong, e.g. "could not connect to 127.0.0.1: connection refused".
    let reason: String

    var description: String { reason }
}

extension HTTPTransportError {
    init(_ error: HTTPClientError) {
        switch error {
        case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
            self.init(code: .timedOut, reason: "\(error)")
        case .remoteConnectionClosed:
            self.init(code: .networkConnectionLost, reason: "\(error)")
        default:
            self.init(code: .cannotLoadFromNetwork, reason: "\(error)")
        }
    }
}

/// The `--ca-file` cannot serve as trust roots.
struct CAFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "--ca-file \(path): not a readable PEM certificate file (\(reason))" }
}
