import Foundation
import NIOCore
import NIOPosix

/// One server-sent event as a client sees it.
struct ReceivedEvent: Equatable, Sendable {
    var id: String?
    var event: String?
    var data: String
}

/// A bare HTTP/1.1 client for `text/event-stream` responses: sends one GET and reads events as
/// the chunks arrive, so tests see what a live subscriber sees (the test clients of
/// HummingbirdTesting wait for the whole body). The connection is closed when `body` returns.
func withEventStream<Value: Sendable>(
    port: Int, path: String, headers: [String: String] = [:], _ body: (inout EventReader) async throws -> Value
) async throws -> Value {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: "localhost", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    var request = "GET \(path) HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
    for (name, value) in headers {
        request += "\(name): \(value)\r\n"
    }
    request += "\r\n"
    return try await channel.executeThenClose { inbound, outbound in
        try await outbound.write(ByteBuffer(string: request))
        var reader = EventReader(iterator: inbound.makeAsyncIterator())
        return try await body(&reader)
    }
}

/// Reads a response's parts in order: the status, then events and comments; nil once the server
/// has closed the connection.
struct EventReader {
    var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private var parser = ChunkedEventParser()
    private var ready: [StreamPart] = []

    init(iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) {
        self.iterator = iterator
    }

    mutating func next() async throws -> StreamPart? {
        while ready.isEmpty {
            guard let buffer = try await iterator.next() else { return nil }
            ready += parser.feed(String(buffer: buffer))
        }
        return ready.removeFirst()
    }

    /// The status code of the response.
    mutating func status() async throws -> Int? {
        while let part = try await next() {
            if case .status(let code) = part { return code }
        }
        return nil
    }

    /// The next event, skipping comments.
    mutating func nextEvent() async throws -> ReceivedEvent? {
        while let part = try await next() {
            if case .event(let event) = part { return event }
        }
        return nil
    }
}

enum StreamPart: Equatable, Sendable {
    case status(Int)
    case event(ReceivedEvent)
    case comment(String)
}

/// Undoes HTTP/1.1 chunked transfer coding and splits the body into event-stream frames.
struct ChunkedEventParser {
    private var pending = ""
    private var body = ""
    private var sawHead = false

    mutating func feed(_ text: String) -> [StreamPart] {
        pending += text
        var parts: [StreamPart] = []
        if !sawHead {
            guard let end = pending.range(of: "\r\n\r\n") else { return [] }
            let head = pending[..<end.lowerBound]
            let statusLine = head.split(separator: "\r\n").first ?? ""
            let code = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            parts.append(.status(code))
            pending = String(pending[end.upperBound...])
            sawHead = true
        }
        // Chunks: hex size CRLF data CRLF.
        while let lineEnd = pending.range(of: "\r\n") {
            guard let size = Int(pending[..<lineEnd.lowerBound], radix: 16) else { break }
            let dataStart = lineEnd.upperBound
            guard pending.utf8.count >= pending.utf8.distance(from: pending.startIndex, to: dataStart) + size + 2 else { break }
            let dataEnd = pending.utf8.index(dataStart, offsetBy: size)
            body += pending[dataStart..<dataEnd]
            pending = String(pending[pending.utf8.index(dataEnd, offsetBy: 2)...])
        }
        while let frameEnd = body.range(of: "\n\n") {
            let frame = body[..<frameEnd.lowerBound]
            body = String(body[frameEnd.upperBound...])
            var event = ReceivedEvent(id: nil, event: nil, data: "")
            var dataLines: [Substring] = []
            for line in frame.split(separator: "\n") {
                if line.hasPrefix(":") {
                    parts.append(.comment(String(line.dropFirst()).trimmingCharacters(in: .whitespaces)))
                } else if line.hasPrefix("id: ") {
                    event.id = String(line.dropFirst(4))
                } else if line.hasPrefix("event: ") {
                    event.event = String(line.dropFirst(7))
                } else if line.hasPrefix("data: ") {
                    dataLines.append(line.dropFirst(6))
                }
            }
            if !dataLines.isEmpty {
                event.data = dataLines.joined(separator: "\n")
                parts.append(.event(event))
            }
        }
        return parts
    }
}
