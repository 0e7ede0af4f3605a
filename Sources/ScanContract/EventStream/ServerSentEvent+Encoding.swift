extension ServerSentEvent {
    /// Why an event cannot be written: a line break in `id` or `event` would start a field the
    /// caller did not mean, and a NUL in `id` makes clients ignore it.
    public struct EncodingError: Error, Equatable, CustomStringConvertible {
        public let field: String
        public let value: String

        public init(field: String, value: String) {
            self.field = field
            self.value = value
        }

        public var description: String {
            "the \(field) of a server-sent event cannot hold a line break\(field == "id" ? " or NUL" : ""), got \(value.debugDescription)"
        }
    }

    /// The event as `text/event-stream` text: `id`, then `event` unless it is `message`, then one
    /// `data` line per line of ``data`` (CRLF, CR and LF all end a line), then the blank line that
    /// dispatches it.
    ///
    /// - Throws: ``EncodingError`` when `id` holds CR, LF or NUL, or `event` holds CR or LF.
    public func encoded() throws -> String {
        var text = ""
        if let id {
            guard !id.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw EncodingError(field: "id", value: id)
            }
            text += "id: \(id)\n"
        }
        if event != Self.defaultType {
            guard !event.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw EncodingError(field: "event", value: event)
            }
            text += "event: \(event)\n"
        }
        for line in Self.lines(of: data) {
            text += "data: \(line)\n"
        }
        return text + "\n"
    }

    /// A comment: clients ignore it, and proxies see traffic on an idle stream. Each line of
    /// `text` becomes its own comment line.
    public static func comment(_ text: String) -> String {
        lines(of: text).map { ": \($0)\n" }.joined() + "\n"
    }

    /// `text` split where the event-stream format ends a line; one empty line for empty text.
    private static func lines(of text: String) -> [Substring] {
        // Compare scalars: a Character joins CR LF into one.
        var lines: [Substring] = []
        var start = text.unicodeScalars.startIndex
        var index = start
        let scalars = text.unicodeScalars
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "\r" || scalar == "\n" {
                lines.append(Substring(scalars[start..<index]))
                var next = scalars.index(after: index)
                if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" {
                    next = scalars.index(after: next)
                }
                start = next
                index = next
            } else {
                index = scalars.index(after: index)
            }
        }
        lines.append(Substring(scalars[start...]))
        return lines
    }
}
