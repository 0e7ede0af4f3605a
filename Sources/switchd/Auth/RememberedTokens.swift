import Synchronization

/// The principals of tokens switchd has found active, by the token's SHA-256, so that an upload
/// need not read the token table before its write (``TokenAuthenticator``). A token's role,
/// name and scanner never change once issued; only revocation does, and a route that accepts a
/// remembered token checks that again in the transaction that stores its data
/// (``AccessRule/checksTokenWhenStoring``), so a revocation holds from the next request on,
/// whichever process or instance made it.
///
/// Bounded: when ``capacity`` tokens are remembered, the next one clears them all (a fleet's
/// scanners are remembered again at their next upload, one read each).
final class RememberedTokens: Sendable {
    let capacity: Int
    private let principals = Mutex<[[UInt8]: Principal]>([:])

    static let defaultCapacity = 16_384

    init(capacity: Int = defaultCapacity) {
        self.capacity = capacity
    }

    func principal(hash: [UInt8]) -> Principal? {
        principals.withLock { $0[hash] }
    }

    func remember(_ principal: Principal, hash: [UInt8]) {
        principals.withLock { principals in
            if principals.count >= capacity, principals[hash] == nil { principals.removeAll(keepingCapacity: true) }
            principals[hash] = principal
        }
    }

    func forget(hash: [UInt8]) {
        _ = principals.withLock { $0.removeValue(forKey: hash) }
    }

    var count: Int { principals.withLock { $0.count } }
}
