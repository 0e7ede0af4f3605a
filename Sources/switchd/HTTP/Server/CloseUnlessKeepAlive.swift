import NIOCore
import NIOHTTP1

/// Marks every request whose connection must not be kept open after the answer with
/// `Connection: close`, which is what Hummingbird looks for: HTTP/1.0 without
/// `Connection: keep-alive`, and HTTP/1.1 with `Connection: close` in any spelling. Needed
/// because the version is lost when the request becomes an `HTTPRequest`.
final class CloseUnlessKeepAlive: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}

@available(*, unavailable)
extension CloseUnlessKeepAlive: Sendable {}
