import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A webhook receiver on loopback for the delivery benchmark: answers every POST 204 at once
/// (keep-alive, as switchd's sender reuses connections) and keeps each delivery's scanner and
/// event ID, so the run can check the order. It verifies no signature (scripts/webhook-bench does).
final class WebhookCounter: Sendable {
    private struct Delivered: Decodable {
        struct Event: Decodable {
            var id: Int64
            var scannerID: String?
            var tagID: String?
        }

        var data: Event
    }

    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let channel: any Channel
    private let state = NIOLockedValueBox<(events: [(subject: String, id: Int64)], waiters: [(Int, CheckedContinuation<Void, Never>)])>((events: [], waiters: []))
    let port: Int

    init() throws {
        let state = self.state
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler { body in WebhookCounter.record(body, in: state) })
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    private static func record(_ body: ByteBuffer, in state: NIOLockedValueBox<(events: [(subject: String, id: Int64)], waiters: [(Int, CheckedContinuation<Void, Never>)])>) {
        guard let delivered = try? JSONDecoder().decode(Delivered.self, from: Data(body.readableBytesView)) else { return }
        let subject = delivered.data.scannerID ?? delivered.data.tagID ?? ""
        let ready = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.events.append((subject, delivered.data.id))
            let count = state.events.count
            let ready = state.waiters.filter { $0.0 <= count }.map(\.1)
            state.waiters.removeAll { $0.0 <= count }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    /// Returns once `count` deliveries have been accepted, or throws after `timeout`.
    func waitFor(_ count: Int, timeout: Duration) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let now = self.state.withLockedValue { state -> Bool in
                        if state.events.count >= count { return true }
                        state.waiters.append((count, continuation))
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw CancellationError()
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Whether every subject's events arrived in increasing ID order.
    func inOrderPerScanner() -> Bool {
        let events = state.withLockedValue { $0.events }
        return Dictionary(grouping: events, by: \.subject).values.allSatisfy { list in
            zip(list, list.dropFirst()).allSatisfy { $0.id < $1.id }
        }
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let onBody: @Sendable (ByteBuffer) -> Void
        private var body = ByteBuffer()
        private var keepAlive = true

        init(onBody: @escaping @Sendable (ByteBuffer) -> Void) {
            self.onBody = onBody
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                keepAlive = head.isKeepAlive
                body.clear()
            case .body(var part):
                body.writeBuffer(&part)
            case .end:
                onBody(body)
                var headers = HTTPHeaders()
                headers.add(name: "Content-Length", value: "0")
                if !keepAlive { headers.add(name: "Connection", value: "close") }
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .noContent, headers: headers))), promise: nil)
                let keepAlive = keepAlive
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                    if !keepAlive { context.close(promise: nil) }
                }
            }
        }
    }
}
