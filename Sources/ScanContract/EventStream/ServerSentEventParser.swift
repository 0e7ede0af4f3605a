/// Reads a `text/event-stream` byte stream as it arrives, in pieces of any size, by the WHATWG
/// rules: a leading UTF-8 BOM is skipped; CRLF, LF and CR each end a line; a blank line dispatches
/// the event being built; a line starting with `:` is a comment; `data` lines join with LF; `id`
/// sets the last event ID (unless it holds NUL) and it stays for later events; `retry` with only
/// digits sets ``reconnectionTime``; other fields are ignored. Invalid UTF-8 reads as U+FFFD.
///
/// An event cut off by the end of the stream is never dispatched: the format has no end marker
/// other than the blank line, so a half-received event is dropped, not guessed at.
public struct ServerSentEventParser: Sendable {
    /// What a stream holds that a reader can see.
    public enum Item: Sendable, Equatable {
        case event(ServerSentEvent)
        /// A comment line's text after the colon and one space, if any.
        case comment(String)
    }

    /// The last event ID in force; empty until an `id` field sets it.
    public private(set) var lastEventID = ""
    /// The reconnection time in milliseconds that the stream's last valid `retry` field set.
    public private(set) var reconnectionTime: Int?

    private var line: [UInt8] = []
    /// Set after a CR, so an LF arriving next (perhaps in the next piece) ends no second line.
    private var afterCR = false
    /// Bytes of the stream seen so far, capped at the BOM's length: the BOM is only at the start.
    private var bytesSeen = 0
    private var data = ""
    private var hasData = false
    private var eventType = ""

    public init() {}

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Reads the next piece of the stream; returns the events and comments it completed, in order.
    public mutating func parse(_ bytes: some Sequence<UInt8>) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if bytesSeen < Self.byteOrderMark.count {
                bytesSeen += 1
                if line.count == bytesSeen - 1, byte == Self.byteOrderMark[bytesSeen - 1] {
                    line.append(byte)
                    if bytesSeen == Self.byteOrderMark.count { line.removeAll() }
                    continue
                }
                bytesSeen = Self.byteOrderMark.count
            }
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\r"):
                afterCR = true
                if let item = endLine() { items.append(item) }
            case UInt8(ascii: "\n"):
                if let item = endLine() { items.append(item) }
            default:
                line.append(byte)
            }
        }
        return items
    }

    private mutating func endLine() -> Item? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        let text = String(decoding: line, as: UTF8.self)
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "": return .comment(String(value))
        case "event": eventType = String(value)
        case "data":
            data += hasData ? "\n" + value : String(value)
            hasData = true
        case "id" where !value.unicodeScalars.contains("\0"): lastEventID = String(value)
        case "retry" where !value.isEmpty && value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }):
            // Digits beyond Int's range leave the time as it was.
            if let milliseconds = Int(value) { reconnectionTime = milliseconds }
        default: break
        }
        return nil
    }

    /// The blank line: the event built so far, if it has a `data` line; the buffers start over.
    private mutating func dispatch() -> Item? {
        defer {
            data = ""
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        return .event(ServerSentEvent(
            id: lastEventID.isEmpty ? nil : lastEventID,
            event: eventType.isEmpty ? ServerSentEvent.defaultType : eventType,
            data: data))
    }
}
