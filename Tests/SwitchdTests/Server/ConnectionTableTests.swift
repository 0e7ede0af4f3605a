import Logging
import NIOCore
import NIOEmbedded
import Testing
@testable import switchd

/// At the limit the connection idle longest makes room; a connection with a request in
/// progress (a long-poll, a feed) never does.
@Suite("Connections: the limit closes the idlest, never a busy one")
struct ConnectionTableTests {
    func table(limit: Int, overflow: Int = 0) -> ConnectionTable {
        var logger = Logger(label: "switchd-tests")
        logger.logLevel = .critical
        return ConnectionTable(limit: limit, overflow: overflow, metrics: ConnectionMetrics(factory: SwitchdMetrics().factory), logger: logger)
    }

    func open(_ table: ConnectionTable) async throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).get()
        table.accepted()
        table.track(channel)
        return channel
    }

    @Test func belowTheLimitThereIsRoomAndNothingIsClosed() async throws {
        let connections = table(limit: 3)
        let channels = [try await open(connections), try await open(connections)]
        #expect(connections.hasRoom())
        let active = channels.map(\.isActive)
        #expect(active == [true, true])
    }

    @Test func atTheLimitTheConnectionIdleLongestIsClosedAndBusyOnesStay() async throws {
        let connections = table(limit: 3)
        let feed = try await open(connections)
        let answered = try await open(connections)
        let neverAsked = try await open(connections)
        connections.requestStarted(on: feed)
        connections.requestStarted(on: answered)
        connections.requestEnded(on: answered)

        #expect(!connections.hasRoom(), "full: wait for the close")
        #expect(feed.isActive, "a request in progress is never closed for room")
        #expect(neverAsked.isActive == false, "idle since it opened, longer than the one whose request has ended")
        #expect(answered.isActive)

        connections.untrack(neverAsked)
        connections.released()
        #expect(connections.hasRoom())
    }

    @Test func whenEveryConnectionIsBusyNoneIsClosed() async throws {
        let connections = table(limit: 2)
        let busy = [try await open(connections), try await open(connections)]
        busy.forEach { connections.requestStarted(on: $0) }
        #expect(!connections.hasRoom())
        let active = busy.map(\.isActive)
        #expect(active == [true, true])
    }

    /// With every connection busy, the overflow room takes a few more, each marked to be answered
    /// once and closed; none of them is closed for room.
    @Test func whenEveryConnectionIsBusyTheOverflowIsAcceptedToBeAnsweredOnce() async throws {
        let connections = table(limit: 2, overflow: 1)
        let busy = [try await open(connections), try await open(connections)]
        busy.forEach { connections.requestStarted(on: $0) }
        #expect(connections.hasRoom(), "one more, to be refused")
        let extra = try await open(connections)
        #expect(connections.isOverflow(ObjectIdentifier(extra)))
        #expect(!busy.contains { connections.isOverflow(ObjectIdentifier($0)) })

        #expect(!connections.hasRoom(), "the overflow is full")
        #expect(extra.isActive, "an overflow connection is never closed for room")
        connections.requestStarted(on: extra)
        #expect(connections.requestEnded(on: extra), "an overflow connection closes after its answer")
        #expect(!connections.requestEnded(on: busy[0]))

        #expect(!connections.hasRoom())
        #expect(busy[0].isActive == false, "the idle connection within the limit makes room first")
    }
}
