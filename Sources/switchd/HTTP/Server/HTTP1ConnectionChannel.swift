import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOSSL

/// switchd's HTTP/1.1 connection pipeline: Hummingbird's `HTTP1Channel` with three additions —
/// ``CloseUnlessKeepAlive`` before the request becomes an `HTTPRequest`, the
/// ``ConnectionTracker`` that tells the ``ConnectionTable`` which connections are idle, and
/// the idle timeout. A connection with no request in progress (none sent yet, a request head
/// still arriving, or between requests) is closed after `idleTimeout`; one whose answer is
/// still being written (a long-poll, a live feed) never is. With a TLS context every connection
/// speaks TLS first (HTTPS); a client that does not is dropped at the handshake.
struct HTTP1ConnectionChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let table: ConnectionTable
    let idleTimeout: Duration
    let tls: NIOSSLContext?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            if let tls {
                try pipeline.addHandler(NIOSSLServerHandler(context: tls))
            }
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false
            )
            try pipeline.addHandler(CloseUnlessKeepAlive())
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: tls != nil))
            try pipeline.addHandler(ConnectionTracker(table: table))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 through ``HTTP1ConnectionChannel``, over TLS when `tls` is given.
    static func switchd(table: ConnectionTable, idleTimeout: Duration, tls: NIOSSLContext? = nil) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            HTTP1ConnectionChannel(responder: responder, table: table, idleTimeout: idleTimeout, tls: tls)
        }
    }
}
