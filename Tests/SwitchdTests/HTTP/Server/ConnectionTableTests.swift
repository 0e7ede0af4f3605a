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

    /// Streams ended for scanners are logged once per episode of pressure: again only after the
    /// connections have fallen to three quarters of the limit. `close` ends a tracked connection.
    @Test func streamsEndedForScannersAreLoggedOncePerEpisodeAndCloseEndsTheirConnection() async throws {
        let connections = table(limit: 8)
        var channels: [EmbeddedChannel] = []
        for _ in 0..<8 { channels.append(try await open(connections)) }
        #expect(connections.firstEvictionOfEpisode())
        #expect(!connections.firstEvictionOfEpisode(), "a second stream ended in the same episode")
        connections.close(ObjectIdentifier(channels[0]))
        #expect(channels[0].isActive == false)
        #expect(channels[1].isActive)
        connections.untrack(channels[0])
        connections.released()
        #expect(!connections.firstEvictionOfEpisode(), "7 of 8, above three quarters: the same episode")
        for channel in channels[1...2] {
            connections.untrack(channel)
            connections.released()
        }
        #expect(connections.firstEvictionOfEpisode(), "down to 5 of 8: a new episode is logged again")
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
        #expect(
            connections.requestEnded(on: busy[0]),
            "the acceptor waits: the first connection within the limit to fall idle closes after its answer, to make room")
        #expect(!connections.hasRoom(), "room is coming")
        #expect(busy[1].isActive)
    }

    /// Hummingbird asks again only when a connection closes. Connections accepted faster than
    /// their pipelines are set up (a loaded machine) are not in the table yet when the limit is
    /// reached: nothing to close, so the acceptor waits; once a second is tracked, the first
    /// (idle longer) makes room, or accepting would stall until an idle timeout (CI saw
    /// `/healthz` time out that way). A connection is never closed as it is tracked: it was
    /// accepted to be served (CI saw `/healthz` get an empty reply when it was).
    @Test func anAcceptorWaitingBeforeItsConnectionsAreTrackedGetsRoomFromTheFirstTracked() async throws {
        let connections = table(limit: 2)
        connections.accepted()
        connections.accepted()
        #expect(!connections.hasRoom(), "full, and nothing tracked to close yet")
        func tracked() async throws -> EmbeddedChannel {
            let channel = EmbeddedChannel()
            try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).get()
            connections.track(channel)
            return channel
        }
        let first = try await tracked()
        #expect(first.isActive, "not closed as it is tracked")
        let second = try await tracked()
        #expect(first.isActive == false, "idle longest: closed for room")
        #expect(second.isActive)
        let third = try await tracked()
        #expect(second.isActive && third.isActive, "one close per wait: room is coming already")
    }

    /// Every connection busy, the acceptor waits; the first answer ending makes room by closing
    /// that connection after it (or one idle longer). Without a waiting acceptor it stays open.
    @Test func anAcceptorWaitingOnBusyConnectionsGetsRoomWhenAnAnswerEnds() async throws {
        let connections = table(limit: 2)
        let busy = [try await open(connections), try await open(connections)]
        busy.forEach { connections.requestStarted(on: $0) }
        connections.requestStarted(on: busy[1])
        #expect(!connections.hasRoom())
        #expect(connections.requestEnded(on: busy[0]), "close it after its answer: the acceptor waits")
        #expect(!connections.requestEnded(on: busy[1]), "still one request in progress")
        #expect(!connections.requestEnded(on: busy[1]), "room is coming already")
        #expect(busy[1].isActive)

        let calm = table(limit: 2)
        let answered = try await open(calm)
        calm.requestStarted(on: answered)
        #expect(!calm.requestEnded(on: answered), "nobody waits for room: keep-alive stays")
    }
}
