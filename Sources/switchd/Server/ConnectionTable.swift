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
/// closed for this. When every connection is busy, new ones wait in the kernel's backlog until
/// one ends. Reaching the limit is counted (`switchd_connection_limit_reached_total`) and logged
/// once per episode: again only after the count has fallen to three quarters of the limit.
final class ConnectionTable: Sendable {
    let limit: Int
    private let logger: Logger
    private let metrics: ConnectionMetrics
    private let state = Mutex(State())

    private struct State {
        var open = 0
        var connections: [ObjectIdentifier: Connection] = [:]
        /// Increases each time a connection becomes idle: the smallest is the one idle longest.
        var idleTicket: UInt64 = 0
        var limitLogged = false
    }

    private struct Connection {
        let channel: any Channel
        var requestsInProgress = 0
        var idleSince: UInt64
    }

    init(limit: Int, metrics: ConnectionMetrics, logger: Logger) {
        precondition(limit > 0, "the connection limit must be positive")
        self.limit = limit
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
            if state.open <= limit * 3 / 4 { state.limitLogged = false }
            return state.open
        }
        metrics.open.record(open)
    }

    /// Whether another connection may be accepted now. At the limit, closes the connection idle
    /// longest (its close makes room and accepting resumes) and answers false.
    func hasRoom() -> Bool {
        let (evicted, open, firstTime): ((any Channel)?, Int, Bool) = state.withLock { state in
            guard state.open >= limit else { return (nil, state.open, false) }
            let idlest = state.connections.values.filter { $0.requestsInProgress == 0 }.min { $0.idleSince < $1.idleSince }
            if let idlest { state.connections[ObjectIdentifier(idlest.channel)] = nil }
            let firstTime = !state.limitLogged
            state.limitLogged = true
            return (idlest?.channel, state.open, firstTime)
        }
        guard open >= limit else { return true }
        metrics.limitReached.increment()
        if firstTime {
            logger.warning(
                evicted == nil
                    ? "Connection limit reached and every connection is busy: new connections wait in the backlog"
                    : "Connection limit reached: closing the connections idle longest to make room",
                metadata: ["open": "\(open)", "limit": "\(limit)"]
            )
        }
        evicted?.close(promise: nil)
        return false
    }

    /// Starts tracking an accepted connection's requests; it is idle until its first request.
    func track(_ channel: any Channel) {
        state.withLock { state in
            state.idleTicket += 1
            state.connections[ObjectIdentifier(channel)] = Connection(channel: channel, idleSince: state.idleTicket)
        }
    }

    func untrack(_ channel: any Channel) {
        _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// A request's head has arrived: the connection is busy until its answer has been written.
    func requestStarted(on channel: any Channel) {
        state.withLock { $0.connections[ObjectIdentifier(channel)]?.requestsInProgress += 1 }
    }

    /// A request's answer has been written.
    func requestEnded(on channel: any Channel) {
        state.withLock { state in
            let key = ObjectIdentifier(channel)
            guard var connection = state.connections[key] else { return }
            connection.requestsInProgress = max(0, connection.requestsInProgress - 1)
            if connection.requestsInProgress == 0 {
                state.idleTicket += 1
                connection.idleSince = state.idleTicket
            }
            state.connections[key] = connection
        }
    }
}

/// The connection table's metrics.
struct ConnectionMetrics: Sendable {
    /// `switchd_connections_open`: accepted connections not yet closed.
    let open: CoreMetrics.Gauge
    /// `switchd_connection_limit_reached_total`: times a connection found the limit reached.
    let limitReached: CoreMetrics.Counter

    init(factory: any MetricsFactory) {
        open = CoreMetrics.Gauge(label: "switchd_connections_open", factory: factory)
        limitReached = CoreMetrics.Counter(label: "switchd_connection_limit_reached_total", factory: factory)
    }
}
