#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// One HTTP exchange, as scannerd needs it: small requests, whole bodies of a bounded size.
struct HTTPRequest: Sendable {
    enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
    }

    var method: Method
    var url: URL
    var body: Data?
    /// Extra request headers (e.g. `If-None-Match`); JSON content headers are set by the client.
    var headers: [String: String]
    /// The whole exchange must finish within this, or it fails with a timeout.
    var timeout: Duration
    /// The most bytes of answer body this request may bring; a longer answer fails the request
    /// with ``HTTPAnswerTooLargeError`` as soon as it is known to be longer, having read at most this.
    var answerLimit: Int

    /// Enough for anything of switchd's but the radio map: a switch (switchd keeps its answers
    /// within this, ``ScanSwitch/answerLimit``), a receipt, an error, a position.
    static let smallAnswerLimit = ScanSwitch.answerLimit

    init(
        _ method: Method, _ url: URL, body: Data? = nil, headers: [String: String] = [:], timeout: Duration,
        answerLimit: Int = smallAnswerLimit
    ) {
        self.method = method
        self.url = url
        self.body = body
        self.headers = headers
        self.timeout = timeout
        self.answerLimit = answerLimit
    }
}

struct HTTPResponse: Sendable {
    var status: Int
    var body: Data
    /// Response headers, names in lower case.
    var headers: [String: String]

    init(status: Int, body: Data, headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }
}

/// The edge where scannerd talks HTTP. Throws for transport failures (refused, reset, timed out),
/// ``HTTPAnswerTooLargeError`` for an answer longer than the request's `answerLimit`, and
/// `CancellationError` when the calling task is cancelled; any status is a response.
protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// The server's answer was longer than the request allows (``HTTPRequest/answerLimit``); the
/// request failed without reading the rest, so a server sending without end cannot fill memory.
struct HTTPAnswerTooLargeError: Error, CustomStringConvertible {
    let url: URL
    let limit: Int

    var description: String {
        "the answer to \(url.path) is longer than \(limit) bytes, the most scannerd reads for it; the request failed"
    }
}

/// The request did not get an answer: refused, reset, timed out, name not found, server not trusted.
struct HTTPTransportError: Error, CustomStringConvertible {
    enum Code: Sendable {
        case timedOut
        case networkConnectionLost
        case cannotLoadFromNetwork
        /// The server's TLS certificate is not signed by a trusted CA (or not the `--ca-file` pin).
        case serverNotTrusted
    }

    let code: Code
    /// What went wrong, e.g. "could not connect to 127.0.0.1: connection refused".
    let reason: String

    var description: String { reason }
}
