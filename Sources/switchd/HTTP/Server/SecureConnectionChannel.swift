import HummingbirdCore
import HummingbirdHTTP2
import Logging
import NIOCore
import NIOSSL
import NIOTLS

/// switchd's HTTPS connections: TLS first, then HTTP/2 when the client's ALPN offers `h2`
/// (browsers do), else HTTP/1.1 through ``HTTP1ConnectionChannel``. Over HTTP/2 a page's
/// requests and live feeds share one connection instead of queueing for the six HTTP/1.1
/// connections a browser allows per origin.
///
/// Either way the connection is in the ``ConnectionTable`` from the moment it is accepted
/// (``ConnectionPresence``), so the connection limit, the overflow's 503 and the closing of the
/// connection idle longest work as for HTTP/1.1: an HTTP/2 connection is busy while any of its
/// streams has a request in progress (each stream's ``ConnectionTracker`` counts on the
/// connection), and is closed after `idleTimeout` with no stream open. A client that does not
/// speak TLS is dropped at the handshake; one that negotiates another protocol is closed.
struct SecureConnectionChannel: ServerChildChannel, HTTPChannelHandler {
    enum Negotiated: Sendable {
        case http1(HTTP1ConnectionChannel.Value)
        case http2(HTTP2Channel.Value)
    }

    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let table: ConnectionTable
    let tls: NIOSSLContext
    private let http1: HTTP1ConnectionChannel
    private let http2: HTTP2Channel

    init(responder: @escaping HTTPChannelHandler.Responder, table: ConnectionTable, idleTimeout: Duration, tls: NIOSSLContext) {
        self.responder = responder
        self.table = table
        self.tls = tls
        http1 = HTTP1ConnectionChannel(responder: responder, table: table, idleTimeout: idleTimeout, secure: true)
        http2 = HTTP2Channel(responder: responder, configuration: .init(
            idleTimeout: idleTimeout,
            streamConfiguration: .init(additionalChannelHandlers: [ConnectionTracker(table: table, onStream: true)])
        ))
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ConnectionPresence(table: table))
            try pipeline.addHandler(NIOSSLServerHandler(context: tls))
            let http1 = http1
            let http2 = http2
            let negotiation = NIOTypedApplicationProtocolNegotiationHandler<Negotiated> { result, channel in
                switch result {
                case .negotiated("h2"):
                    return http2.setup(channel: channel, logger: logger).map { Negotiated.http2($0) }
                case .negotiated("http/1.1"), .fallback:
                    return channel.eventLoop.makeCompletedFuture { Negotiated.http1(try http1.configure(channel, logger: logger)) }
                case .negotiated(let other):
                    logger.debug("TLS client negotiated a protocol switchd does not speak", metadata: ["alpn": "\(other)"])
                    return channel.close().flatMap { () -> EventLoopFuture<Negotiated> in
                        channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
                    }
                }
            }
            try pipeline.addHandler(negotiation)
            return Value(negotiated: negotiation.protocolNegotiationResult, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .http1(let connection): await http1.handle(value: connection, logger: logger)
            case .http2(let connection): await http2.handle(value: connection, logger: logger)
            }
        } catch {
            logger.debug("TLS connection ended before it spoke HTTP", metadata: ["error": "\(error)"])
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 through ``HTTP1ConnectionChannel``; with `tls`, HTTPS with HTTP/2 or HTTP/1.1
    /// by ALPN through ``SecureConnectionChannel``.
    static func switchd(table: ConnectionTable, idleTimeout: Duration, tls: NIOSSLContext? = nil) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            guard let tls else {
                return HTTP1ConnectionChannel(responder: responder, table: table, idleTimeout: idleTimeout)
            }
            return SecureConnectionChannel(responder: responder, table: table, idleTimeout: idleTimeout, tls: tls)
        }
    }
}
