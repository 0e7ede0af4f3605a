import Hummingbird
import ScanContract

/// How switchd writes the contract's ``ServerSentEvent`` into an HTTP response.
extension ServerSentEvent {
    /// The event as one `text/event-stream` frame.
    ///
    /// - Throws: ``ServerSentEvent/EncodingError`` when `id` or `event` holds a line break.
    var frame: ByteBuffer {
        get throws { ByteBuffer(string: try encoded()) }
    }

    /// A comment; clients ignore it, proxies see traffic.
    static let keepAlive = ByteBuffer(string: comment("keep-alive"))

    /// How often an idle stream sends ``keepAlive``.
    static let keepAliveInterval = Duration.seconds(15)

    /// The `Last-Event-ID` header an event-stream client sends when it reconnects.
    static func lastEventID(of request: Request) -> String? {
        request.headers.first(where: { $0.name.canonicalName == "last-event-id" })?.value
    }

    static let headers: HTTPFields = [
        .contentType: "text/event-stream",
        .cacheControl: "no-cache",
    ]
}
