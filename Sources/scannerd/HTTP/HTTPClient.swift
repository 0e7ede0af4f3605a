import Foundation

/// One HTTP exchange, as scannerd needs it: small requests, whole bodies.
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

    init(_ method: Method, _ url: URL, body: Data? = nil, headers: [String: String] = [:], timeout: Duration) {
        self.method = method
        self.url = url
        self.body = body
        self.headers = headers
        self.timeout = timeout
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

/// The edge where scannerd talks HTTP. Throws for transport failures (refused, reset, timed out)
/// and `CancellationError` when the calling task is cancelled; any status is a response.
protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
