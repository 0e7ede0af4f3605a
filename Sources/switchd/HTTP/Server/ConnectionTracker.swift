import NIOCore
import NIOHTTPTypes

/// Tells the ``ConnectionTable`` when a connection's requests start and end, so it knows which
/// connections are idle, and closes an overflow connection once its one answer is written.
/// Sits after HTTP decoding: on an HTTP/1.1 connection's pipeline, or on each HTTP/2 stream's,
/// whose requests count on the connection they share (the stream channel's parent). Passes
/// everything through unchanged. ``ConnectionPresence`` puts the connection in the table.
final class ConnectionTracker: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let table: ConnectionTable
    private let onStream: Bool

    /// `onStream`: the handler is on an HTTP/2 stream, whose parent channel is the connection.
    init(table: ConnectionTable, onStream: Bool = false) {
        self.table = table
        self.onStream = onStream
    }

    private func connection(_ context: ChannelHandlerContext) -> any Channel {
        onStream ? (context.channel.parent ?? context.channel) : context.channel
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            table.requestStarted(on: connection(context))
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let connection = connection(context)
        guard case .end = unwrapOutboundIn(data), table.requestEnded(on: connection) else {
            context.write(data, promise: promise)
            return
        }
        // An overflow connection gets one answer, then makes room; so does the only idle
        // connection while the acceptor waits for room. Closed once the answer is written out.
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.whenComplete { _ in connection.close(promise: nil) }
        context.write(data, promise: written)
        context.flush()
    }
}

@available(*, unavailable)
extension ConnectionTracker: Sendable {}
