import ScanContract
import Synchronization

/// Every long-lived stream open now (the `text/event-stream` routes: each feed's `/stream` and
/// `GET /v1/stream`), registered by ``StreamLimitMiddleware`` while its answer is written: who
/// opened it, from which address, on which connection, and in what order.
///
/// Caps what one caller may hold, so a shared link cannot take every connection: a token may
/// hold ``Caps/perToken`` streams, and an address ``Caps/perAddress`` streams of tokens other
/// than scanner tokens (a building's scanners may all sit behind one NAT; each holds one
/// stream). A stream over either cap is refused (``Refusal``) before it takes anything.
final class OpenStreams: Sendable {
    struct Caps: Sendable, Equatable {
        /// `--max-streams-per-token`.
        var perToken: Int
        /// `--max-streams-per-address`.
        var perAddress: Int
    }

    /// A stream a cap refused; its description names the cap.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        case perToken(Int)
        case perAddress(Int)

        var description: String {
            switch self {
            case .perToken(let cap):
                "this token holds \(cap) streams already, the most --max-streams-per-token allows; close one first"
            case .perAddress(let cap):
                "this address holds \(cap) streams already, the most --max-streams-per-address allows; close one first"
            }
        }
    }

    /// One open stream.
    struct Stream: Sendable, Equatable {
        /// nil on a route open without a token.
        var tokenID: Int64?
        var role: TokenRole?
        var address: String
        /// The channel it is written on and that channel's parent (``AppRequestContext/connection``
        /// and ``AppRequestContext/parentConnection``): the ``ConnectionTable`` holds one of them.
        var connection: ObjectIdentifier
        var parentConnection: ObjectIdentifier?
        /// The order streams were opened in: the smallest is the oldest.
        var opened: UInt64
    }

    /// A registered stream: it leaves the table at ``end()``, or when the last reference goes
    /// (an answer dropped before its body ran still frees its place).
    final class Ticket: Sendable {
        fileprivate let id: UInt64
        private let streams: OpenStreams

        fileprivate init(id: UInt64, streams: OpenStreams) {
            self.id = id
            self.streams = streams
        }

        func end() {
            streams.remove(id)
        }

        deinit {
            streams.remove(id)
        }
    }

    let caps: Caps
    private let state = Mutex(State())

    private struct State {
        var nextID: UInt64 = 0
        var open: [UInt64: Stream] = [:]
    }

    init(caps: Caps) {
        self.caps = caps
    }

    /// Registers a stream `principal` opens from `address` on `connection` (whose parent is `parentConnection`).
    ///
    /// - Throws: ``Refusal`` when the token or the address holds as many streams as its cap.
    func open(_ principal: Principal?, address: String, connection: ObjectIdentifier, parentConnection: ObjectIdentifier? = nil) throws(Refusal) -> Ticket {
        let id = try state.withLock { state throws(Refusal) in
            if let tokenID = principal?.tokenID, state.open.values.count(where: { $0.tokenID == tokenID }) >= caps.perToken {
                throw .perToken(caps.perToken)
            }
            if principal?.role != .scanner,
               state.open.values.count(where: { $0.address == address && $0.role != .scanner }) >= caps.perAddress {
                throw .perAddress(caps.perAddress)
            }
            let id = state.nextID
            state.nextID += 1
            state.open[id] = Stream(
                tokenID: principal?.tokenID, role: principal?.role, address: address, connection: connection, parentConnection: parentConnection, opened: id
            )
            return id
        }
        return Ticket(id: id, streams: self)
    }

    /// Takes the oldest stream opened with one of `roles` out of the table (it is no longer
    /// counted, nor chosen again) and returns it for its connection to be closed; nil when there is none.
    func takeOldest(of roles: Set<TokenRole>) -> Stream? {
        state.withLock { state in
            guard let (id, stream) = state.open.filter({ $0.value.role.map(roles.contains) ?? false }).min(by: { $0.value.opened < $1.value.opened }) else {
                return nil
            }
            state.open[id] = nil
            return stream
        }
    }

    /// The streams open now, oldest first.
    var open: [Stream] {
        state.withLock { $0.open.values.sorted { $0.opened < $1.opened } }
    }

    private func remove(_ id: UInt64) {
        _ = state.withLock { $0.open.removeValue(forKey: id) }
    }
}
