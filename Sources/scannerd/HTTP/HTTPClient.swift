import Foundation

/// One HTTP exchange, as scannerd needs it: small requests, whole bodies.
struct HTTPRequest: Sendable {
    enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
    }

    var method: Method
    var url: URL
    var body: Data?
    /// The whole exchange must finish within this, or it fails with a timeout.
    var timeout: Duration

    init(_ method: Method, _ url: URL, body: Data? = nil, timeout: Duration) {
        self.method = method
        self.url = url
        self.body = body
        self.timeout = timeout
    }
}

struct HTTPResponse: Sendable {
    var status: Int
    var body: Data
}

/// The edge where scannerd talks HTTP. Throws for transport failures (refused, reset, timed out)
/// and `CancellationError` when the calling task is cancelled; any status is a response.
protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
