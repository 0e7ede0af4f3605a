import NIOCore

/// Puts a connection in the ``ConnectionTable`` when it is set up and takes it out when it
/// closes, whatever it turns out to speak: HTTP/1.1 or HTTP/2 (whose requests the table counts
/// on the connection, not on their streams). Reads and writes pass through untouched.
final class ConnectionPresence: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

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
}

@available(*, unavailable)
extension ConnectionPresence: Sendable {}
