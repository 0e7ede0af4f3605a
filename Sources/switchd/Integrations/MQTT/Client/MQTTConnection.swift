import DaemonSupport
import NIOCore
import NIOPosix
import NIOSSL

/// One TCP (or TLS) connection to the broker, carrying MQTT packets: what arrives is in
/// ``inbound``, which ends when the connection closes (throwing the error that closed it, if any).
struct MQTTConnection: Sendable {
    let channel: any Channel
    let inbound: AsyncThrowingStream<MQTTPacket, any Error>

    /// Opens the connection; CONNECT is the caller's to send.
    ///
    /// - Throws: the socket's or TLS's error when the broker cannot be reached within
    ///   `connectTimeout`.
    static func open(to broker: MQTTBroker, tls: NIOSSLContext?, connectTimeout: Duration) async throws -> MQTTConnection {
        let (inbound, continuation) = AsyncThrowingStream.makeStream(of: MQTTPacket.self)
        let serverHostname = broker.isIPAddress ? nil : broker.host
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.nanoseconds(connectTimeout.nanoseconds))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverHostname))
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(MQTTPacketDecoder()))
                    try channel.pipeline.syncOperations.addHandler(MQTTInboundForwarder(continuation: continuation))
                }
            }
            .connect(host: broker.host, port: broker.port)
            .get()
        return MQTTConnection(channel: channel, inbound: inbound)
    }

    /// Writes one packet and returns once it is handed to the socket.
    ///
    /// - Throws: ``MQTTPacketError`` for a packet MQTT cannot carry; the channel's error when the
    ///   connection is closed.
    func send(_ packet: MQTTPacket) async throws {
        var buffer = channel.allocator.buffer(capacity: 64)
        try packet.write(to: &buffer)
        try await channel.writeAndFlush(buffer).get()
    }

    /// Closes the socket; ``inbound`` then ends.
    func close() async {
        do {
            try await channel.close().get()
        } catch {
            // Already closed: nothing more to do.
        }
    }
}

/// Hands each decoded packet to the connection's ``MQTTConnection/inbound`` stream, and ends the
/// stream when the channel closes or fails.
private final class MQTTInboundForwarder: ChannelInboundHandler {
    typealias InboundIn = MQTTPacket

    let continuation: AsyncThrowingStream<MQTTPacket, any Error>.Continuation

    init(continuation: AsyncThrowingStream<MQTTPacket, any Error>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        continuation.yield(unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        continuation.finish(throwing: error)
        context.close(promise: nil)
    }
}
