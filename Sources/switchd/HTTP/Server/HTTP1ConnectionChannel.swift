import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// switchd's HTTP/1.1 connection pipeline: Hummingbird's `HTTP1Channel` with three additions —
/// ``CloseUnlessKeepAlive`` before the request becomes an `HTTPRequest`, the
/// ``ConnectionTracker`` that tells the ``ConnectionTable`` which connections are idle, and
/// the idle timeout. A connection with no request in progress (none sent yet, a request head
/// still arriving, or between requests) is closed after `idleTimeout`; one whose answer is
/// still being written (a long-poll, a live feed) never is. Over TLS, ``SecureConnectionChannel``
/// sets this pipeline up after the handshake when the client did not ask for HTTP/2.
struct HTTP1ConnectionChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let table: ConnectionTable
    let idleTimeout: Duration
    /// The connection speaks TLS (its handshake done by the pipeline's TLS handler).
    var secure = false

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            if !secure {
                try channel.pipeline.syncOperations.addHandler(ConnectionPresence(table: table))
            }
            return try configure(channel, logger: logger)
        }
    }

    /// Adds the HTTP/1.1 handlers to a connection already in the ``ConnectionTable``.
    func configure(_ channel: any Channel, logger: Logger) throws -> Value {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.configureHTTPServerPipeline(
            withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false
        )
        try pipeline.addHandler(CloseUnlessKeepAlive())
        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: secure))
        try pipeline.addHandler(ConnectionTracker(table: table))
        try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
        return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}
