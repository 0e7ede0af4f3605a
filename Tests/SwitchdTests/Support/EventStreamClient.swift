import Foundation
import NIOCore
import NIOPosix
import ScanContract

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
            ready += parser.feed(Array(buffer.readableBytesView))
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
    mutating func nextEvent() async throws -> ServerSentEvent? {
        while let part = try await next() {
            if case .event(let event) = part { return event }
        }
        return nil
    }
}

enum StreamPart: Equatable, Sendable {
    case status(Int)
    case event(ServerSentEvent)
    case comment(String)
}

/// Undoes HTTP/1.1 chunked transfer coding and reads the body with the contract's event parser.
struct ChunkedEventParser {
    private var pending: [UInt8] = []
    private var sawHead = false
    private var events = ServerSentEventParser()

    mutating func feed(_ bytes: [UInt8]) -> [StreamPart] {
        pending += bytes
        var parts: [StreamPart] = []
        let crlf = Array("\r\n".utf8)
        if !sawHead {
            guard let end = pending.firstRange(of: crlf + crlf) else { return [] }
            let statusLine = String(decoding: pending[..<(pending.firstRange(of: crlf)?.lowerBound ?? end.lowerBound)], as: UTF8.self)
            let code = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            parts.append(.status(code))
            pending.removeSubrange(..<end.upperBound)
            sawHead = true
        }
        // Chunks: hex size CRLF data CRLF.
        while let lineEnd = pending.firstRange(of: crlf),
              let size = Int(String(decoding: pending[..<lineEnd.lowerBound], as: UTF8.self), radix: 16),
              pending.count >= lineEnd.upperBound + size + 2 {
            let chunk = pending[lineEnd.upperBound..<(lineEnd.upperBound + size)]
            for item in events.parse(chunk) {
                switch item {
                case .event(let event): parts.append(.event(event))
                case .comment(let text): parts.append(.comment(text))
                }
            }
            pending.removeSubrange(..<(lineEnd.upperBound + size + 2))
        }
        return parts
    }
}
