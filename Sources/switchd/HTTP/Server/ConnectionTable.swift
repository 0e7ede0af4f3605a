import CoreMetrics
import Logging
import NIOCore
import Synchronization

/// The open HTTP connections and the limit on them (`--max-connections`), so that idle
/// connections can never use up switchd's file descriptors.
///
/// Below the limit every connection is accepted. At the limit, the connection that has been
/// idle longest (no request in progress: never sent one, or between requests) is closed to make
/// room; a connection with a request in progress (a long-poll, a live feed, an upload) is never
/// closed for this. When every connection is busy, up to `overflow` more are accepted to be
/// refused: each gets one answer (`/healthz` as usual, so health checks keep working; anything
/// else 503 `overloaded` with `Retry-After`, see ``OverloadMiddleware``) and is then closed.
/// Past that, new connections wait in the kernel's backlog until one ends. Reaching the limit is
/// counted (`switchd_connection_limit_reached_total`) and logged once per episode: again only
/// after the count has fallen to three quarters of the limit.
///
/// Hummingbird asks again only when a connection closes. So when the answer was "wait" with
/// nothing to close (every connection busy, or accepted but not yet tracked, which a loaded
/// machine makes likely), the next idle connection is closed for room as soon as there is one
/// other than a connection just tracked (or one whose answer has just been written); otherwise
/// accepting would stall until an idle timeout.
final class ConnectionTable: Sendable {
    let limit: Int
    /// Connections accepted past `limit` only to be answered once and closed.
    let overflow: Int
    private let logger: Logger
    let metrics: ConnectionMetrics
    private let state = Mutex(State())

    private struct State {
        var open = 0
        var connections: [ObjectIdentifier: Connection] = [:]
        /// Increases each time a connection becomes idle: the smallest is the one idle longest.
        var idleTicket: UInt64 = 0
        var limitLogged = false
        /// Streams have been ended for scanners in this episode (logged once, see ``firstEvictionOfEpisode()``).
        var evictionLogged = false
        /// Connections closed to make room whose close has not been counted yet: room is coming.
        var closingForRoom = 0
        /// The acceptor was told to wait with nothing closing: the next idle connection makes room.
        var acceptorWaiting = false

        /// When the acceptor waits with nothing closing, takes the connection idle longest (within
        /// the limit, other than `sparing`) out of the table to be closed for room.
        mutating func roomForWaitingAcceptor(sparing: (any Channel)? = nil) -> (any Channel)? {
            guard acceptorWaiting, closingForRoom == 0, let victim = idleLongest(sparing: sparing) else { return nil }
            connections[ObjectIdentifier(victim.channel)] = nil
            closingForRoom += 1
            acceptorWaiting = false
            return victim.channel
        }

        /// The connection within the limit idle longest (no request in progress), other than `sparing`.
        func idleLongest(sparing: (any Channel)? = nil) -> Connection? {
            connections.values.filter { $0.requestsInProgress == 0 && !$0.overflow && $0.channel !== sparing }
                .min { $0.idleSince < $1.idleSince }
        }
    }

    private struct Connection {
        let channel: any Channel
        var requestsInProgress = 0
        var idleSince: UInt64
        /// Accepted past the limit: answered once, then closed.
        var overflow = false
    }

    init(limit: Int, overflow: Int = 0, metrics: ConnectionMetrics, logger: Logger) {
        precondition(limit > 0, "the connection limit must be positive")
        self.limit = limit
        self.overflow = overflow
        self.metrics = metrics
        self.logger = logger
    }

    /// The number of accepted connections not yet closed.
    var openCount: Int { state.withLock { $0.open } }

    /// A connection was accepted.
    func accepted() {
        let open = state.withLock { state in
            state.open += 1
            return state.open
        }
        metrics.open.record(open)
    }

    /// An accepted connection has closed.
    func released() {
        let open = state.withLock { state in
            state.open -= 1
            state.closingForRoom = max(0, state.closingForRoom - 1)
            if state.open <= limit * 3 / 4 {
                state.limitLogged = false
                state.evictionLogged = false
            }
            return state.open
        }
        metrics.open.record(open)
    }

    /// Whether another connection may be accepted now. At the limit, closes the connection idle
    /// longest (its close makes room and accepting resumes) and answers false; with none idle,
    /// answers true while there is overflow room (the connection will be refused), else false.
    /// While a connection closed for room is still closing, answers false: the room is coming.
    func hasRoom() -> Bool {
        enum Decision { case accept, wait, evict(any Channel) }
        let (decision, open, firstTime): (Decision, Int, Bool) = state.withLock { state in
            state.acceptorWaiting = false
            guard state.open >= limit else { return (.accept, state.open, false) }
            let firstTime = !state.limitLogged
            state.limitLogged = true
            if let victim = state.idleLongest() {
                state.connections[ObjectIdentifier(victim.channel)] = nil
                state.closingForRoom += 1
                return (.evict(victim.channel), state.open, firstTime)
            }
            // Overflow connections are never closed for room: one that looks idle may have sent
            // its request already, unread; each closes after its one answer, or at the idle timeout.
            if state.closingForRoom > 0 { return (.wait, state.open, firstTime) }
            guard state.open < limit + overflow else {
                state.acceptorWaiting = true
                return (.wait, state.open, firstTime)
            }
            return (.accept, state.open, firstTime)
        }
        guard open >= limit else { return true }
        metrics.limitReached.increment()
        if firstTime {
            if case .evict = decision {
                logger.warning("Connection limit reached: closing the connections idle longest to make room", metadata: [
                    "open": "\(open)", "limit": "\(limit)",
                ])
            } else {
                logger.warning(
                    "Connection limit reached and every connection is busy: new connections are answered 503 overloaded (health checks still 200), then wait in the backlog",
                    metadata: ["open": "\(open)", "limit": "\(limit)", "overflow": "\(overflow)"]
                )
            }
        }
        switch decision {
        case .accept: return true
        case .wait: return false
        case .evict(let channel):
            channel.close(promise: nil)
            return false
        }
    }

    /// Closes the tracked channel `connection` (a channel's `ObjectIdentifier`), if it is still
    /// open: a stream ended to make room (``ScannerPriority``).
    func close(_ connection: ObjectIdentifier) {
        state.withLock { $0.connections[connection]?.channel }?.close(promise: nil)
    }

    /// True for the first stream ended to make room since the connections last fell to three
    /// quarters of the limit, false for the others: one log line per episode of pressure.
    func firstEvictionOfEpisode() -> Bool {
        state.withLock { state in
            defer { state.evictionLogged = true }
            return !state.evictionLogged
        }
    }

    /// Whether `connection` (a channel's `ObjectIdentifier`) was accepted past the limit, to be
    /// answered once and closed.
    func isOverflow(_ connection: ObjectIdentifier) -> Bool {
        state.withLock { $0.connections[connection]?.overflow ?? false }
    }

    /// Starts tracking an accepted connection's requests; it is idle until its first request.
    /// One accepted while `limit` connections within the limit are tracked is an overflow one.
    /// When the acceptor waits with nothing closing, the connection idle longest other than this
    /// one is closed for room: a connection just accepted is there to be served (closing it
    /// unanswered would only churn; CI saw `/healthz` get an empty reply that way).
    func track(_ channel: any Channel) {
        let victim = state.withLock { state in
            state.idleTicket += 1
            // Counted from the table, not `open`: accepting runs ahead of `accepted()`, and
            // connections closed for room leave the table at once.
            let withinLimit = state.connections.values.count { !$0.overflow }
            state.connections[ObjectIdentifier(channel)] = Connection(channel: channel, idleSince: state.idleTicket, overflow: withinLimit >= limit)
            return state.roomForWaitingAcceptor(sparing: channel)
        }
        victim?.close(promise: nil)
    }

    func untrack(_ channel: any Channel) {
        _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// A request's head has arrived: the connection is busy until its answer has been written.
    func requestStarted(on channel: any Channel) {
        state.withLock { $0.connections[ObjectIdentifier(channel)]?.requestsInProgress += 1 }
    }

    /// A request's answer has been written. Returns whether the connection is to be closed now,
    /// after that answer: an overflow one, or the only idle one while the acceptor waits for room.
    /// Another connection idle longer is closed here when the acceptor waits.
    @discardableResult
    func requestEnded(on channel: any Channel) -> Bool {
        let (closeThis, victim): (Bool, (any Channel)?) = state.withLock { state in
            let key = ObjectIdentifier(channel)
            guard var connection = state.connections[key] else { return (false, nil) }
            connection.requestsInProgress = max(0, connection.requestsInProgress - 1)
            if connection.requestsInProgress == 0 {
                state.idleTicket += 1
                connection.idleSince = state.idleTicket
            }
            state.connections[key] = connection
            if connection.overflow { return (true, nil) }
            let victim = state.roomForWaitingAcceptor()
            return victim === channel ? (true, nil) : (false, victim)
        }
        victim?.close(promise: nil)
        return closeThis
    }
}

/// The connection table's metrics.
struct ConnectionMetrics: Sendable {
    /// `switchd_connections_open`: accepted connections not yet closed.
    let open: CoreMetrics.Gauge
    /// `switchd_connection_limit_reached_total`: times a connection found the limit reached.
    let limitReached: CoreMetrics.Counter
    /// `switchd_connections_refused_total`: requests answered 503 `overloaded` on an overflow
    /// connection.
    let refused: CoreMetrics.Counter

    init(factory: any MetricsFactory) {
        open = CoreMetrics.Gauge(label: "switchd_connections_open", factory: factory)
        limitReached = CoreMetrics.Counter(label: "switchd_connection_limit_reached_total", factory: factory)
        refused = CoreMetrics.Counter(label: "switchd_connections_refused_total", factory: factory)
    }
}
