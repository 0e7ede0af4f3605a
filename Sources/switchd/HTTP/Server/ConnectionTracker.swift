import NIOCore
import NIOHTTPTypes

/// Tells the ``ConnectionTable`` when a connection's requests start and end, so it knows which
/// connections are idle, and closes an overflow connection once its one answer is written.
/// Sits after HTTP decoding; passes everything through unchanged.
final class ConnectionTracker: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let table: ConnectionTable

    init(table: ConnectionTable) {
        self.table = table
    }

    func handlerAdded(context: ChannelHandlerContext) {
        table.track(context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        table.untrack(context.channel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        table.untrack(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            table.requestStarted(on: context.channel)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data), table.requestEnded(on: context.channel) else {
            context.write(data, promise: promise)
            return
        }
        // An overflow connection gets one answer, then makes room; so does the only idle
        // connection while the acceptor waits for room.
        let channel = context.channel
        context.write(data, promise: promise)
        context.flush()
        channel.close(promise: nil)
    }
}

@available(*, unavailable)
extension ConnectionTracker: Sendable {}
