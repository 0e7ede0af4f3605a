/// One server-sent event (WHATWG HTML, "Server-sent events"): what a `/v1/…/stream` endpoint
/// writes and what a client dispatches.
public struct ServerSentEvent: Sendable, Equatable {
    /// Writing: nil writes no `id` line, so the client keeps the last id it saw. Reading: the last
    /// event ID in force when the event was dispatched, nil while that is empty.
    public var id: String?
    /// The event type; `message` when the stream names none.
    public var event: String
    /// Written as one `data` line per line of text; read back with the lines joined by LF.
    public var data: String

    public init(id: String? = nil, event: String = ServerSentEvent.defaultType, data: String) {
        self.id = id
        self.event = event
        self.data = data
    }

    /// The type of an event whose stream names none.
    public static let defaultType = "message"
}
