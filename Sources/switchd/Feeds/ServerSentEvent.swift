import Foundation
import Hummingbird

/// One `text/event-stream` frame (WHATWG HTML, "Server-sent events").
struct ServerSentEvent {
    var id: String?
    var event: String?
    /// Written as one `data:` line per line of text.
    var data: String

    var frame: ByteBuffer {
        var text = ""
        if let id { text += "id: \(id)\n" }
        if let event { text += "event: \(event)\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        text += "\n"
        return ByteBuffer(string: text)
    }

    /// A comment line; clients ignore it, proxies see traffic.
    static let keepAlive = ByteBuffer(string: ": keep-alive\n\n")

    /// How often an idle stream sends ``keepAlive``.
    static let keepAliveInterval = Duration.seconds(15)

    static let headers: HTTPFields = [
        .contentType: "text/event-stream",
        .cacheControl: "no-cache",
    ]
}
