import Metrics
import ScanContract
import Synchronization

/// Every open `GET /v1/stream`, registered in this one place while its body is written: who
/// opened it (the token's row ID and role) and since when. This is where a per-token cap on open
/// streams, or ending a reader's streams to make room, belongs; neither is enforced yet.
final class LiveStreams: Sendable {
    /// `switchd_feed_subscribers{feed="live"}`: streams open now.
    private let subscribers: Meter
    private let state = Mutex(State())

    private struct State {
        var nextID: UInt64 = 0
        var open: [UInt64: OpenStream] = [:]
    }

    /// One open stream.
    struct OpenStream: Sendable, Equatable {
        /// nil when switchd runs without authentication (tests, a trusted loopback).
        var tokenID: Int64?
        var role: TokenRole?
        /// The order streams were opened in: the smallest is the oldest.
        var opened: UInt64
    }

    /// A registered stream, handed back to ``unregister(_:)`` when its body ends.
    struct Registration: Sendable, Equatable {
        fileprivate let id: UInt64
    }

    init(subscribers: Meter) {
        self.subscribers = subscribers
    }

    /// Registers a stream `principal` opened.
    func register(_ principal: Principal?) -> Registration {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.open[id] = OpenStream(tokenID: principal?.tokenID, role: principal?.role, opened: id)
            return id
        }
        subscribers.increment()
        return Registration(id: id)
    }

    func unregister(_ registration: Registration) {
        let removed = state.withLock { $0.open.removeValue(forKey: registration.id) }
        if removed != nil { subscribers.decrement() }
    }

    /// The streams open now, oldest first.
    var open: [OpenStream] {
        state.withLock { $0.open.values.sorted { $0.opened < $1.opened } }
    }
}
