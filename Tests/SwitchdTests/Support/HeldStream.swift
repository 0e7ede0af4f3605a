import NIOCore
import NIOPosix

/// One HTTP/1.1 request on its own loopback connection, held open for as long as a test wants
/// (``withEventStream(port:path:headers:_:)`` closes its connection when its body returns): the
/// tests that fill switchd's connections hold many at once, then see which the server ends.
final class HeldStream: Sendable {
    private let channel: any Channel
    private let received: AsyncStream<[UInt8]>

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let continuation: AsyncStream<[UInt8]>.Continuation

        init(_ continuation: AsyncStream<[UInt8]>.Continuation) {
            self.continuation = continuation
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            continuation.yield(Array(unwrapInboundIn(data).readableBytesView))
        }

        func channelInactive(context: ChannelHandlerContext) {
            continuation.finish()
            context.fireChannelInactive()
        }
    }

    private init(channel: any Channel, received: AsyncStream<[UInt8]>) {
        self.channel = channel
        self.received = received
    }

    /// Connects to 127.0.0.1:`port` and sends `GET path` (or `method`) with `headers`.
    static func open(port: Int, path: String, method: String = "GET", headers: [String: String] = [:]) async throws -> HeldStream {
        let (received, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Collector(continuation)) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        var request = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers {
            request += "\(name): \(value)\r\n"
        }
        request += "\r\n"
        try await channel.writeAndFlush(ByteBuffer(string: request)).get()
        return HeldStream(channel: channel, received: received)
    }

    /// Everything received, once the server has sent the response head: its status code and the
    /// bytes so far (the head included); nil when the connection closed first.
    func head() async -> (status: Int, text: String)? {
        var bytes: [UInt8] = []
        for await chunk in received {
            bytes += chunk
            let text = String(decoding: bytes, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            let status = text[..<end.lowerBound].split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return (status, text)
        }
        return nil
    }

    /// Everything received until the server closes the connection (after ``head()``: the rest).
    func untilClosed() async -> String {
        var bytes: [UInt8] = []
        for await chunk in received {
            bytes += chunk
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func close() async {
        try? await channel.close()
    }
}
