#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// Which watched phone or watch (`irk` tag) a resolvable private address belongs to, on the Pi:
/// each new resolvable address (top bits 01) is tried once against every watched key
/// (``ResolvingCipher``, the Core `ah()`), and the answer, a tag or none, is cached while the
/// address is heard. Addresses that are not resolvable, or already cached, cost one dictionary
/// look-up; nothing is resolved while no key is watched. The cache is bounded: when it holds
/// ``capacity`` addresses, those not heard for ``forgetAfter`` go, and if that frees nothing,
/// all go. Not thread-safe: one owner (track mode's loop).
struct AddressResolver {
    /// The most keys resolved against: each costs one AES block per new private address heard.
    static let maxKeys = 200
    static let defaultCapacity = 4096
    /// Phones rotate their address about every 15 minutes; an address unheard for longer is gone.
    static let forgetAfter: TimeInterval = 20 * 60

    let capacity: Int
    private var ciphers: [(identity: TagIdentity, cipher: ResolvingCipher)] = []
    private var cache: [MACAddress: Entry] = [:]
    /// Keys watched beyond ``maxKeys`` (not resolved), for the log.
    private(set) var keysLeftOut = 0
    /// The fingerprints of the `irk` identities last watched that came with their key.
    private(set) var keyed: Set<String> = []

    private struct Entry {
        var identity: TagIdentity?
        var lastHeard: Date
    }

    init(capacity: Int = Self.defaultCapacity) {
        precondition(capacity > 0, "the cache holds some addresses")
        self.capacity = capacity
    }

    /// The number of keys resolved against.
    var keyCount: Int { ciphers.count }

    /// Resolves against the keys of the `irk` identities in `identities` (the first
    /// ``maxKeys``, in key order, so the choice is the same every time); forgets every cached
    /// address.
    mutating func watch(_ identities: some Collection<TagIdentity>) {
        let irks = Self.keyedIRKs(in: identities)
        keyed = Set(irks.map(\.fingerprint))
        keysLeftOut = max(0, irks.count - Self.maxKeys)
        ciphers = irks.sorted { $0.fingerprint < $1.fingerprint }.prefix(Self.maxKeys).compactMap { irk in
            // The key is there (filtered above); nil only when libcrypto is out of memory.
            guard let key = irk.key, let cipher = ResolvingCipher(key: key) else { return nil }
            return (.irk(IRKIdentity(fingerprint: irk.fingerprint)), cipher)
        }
        cache.removeAll()
    }

    /// Whether `identities` hold another set of keys than those last watched (a phone's key that
    /// arrived for a fingerprint already watched without it, or one that went).
    func keysDiffer(from identities: some Collection<TagIdentity>) -> Bool {
        Set(Self.keyedIRKs(in: identities).map(\.fingerprint)) != keyed
    }

    private static func keyedIRKs(in identities: some Collection<TagIdentity>) -> [IRKIdentity] {
        identities.compactMap { identity in
            if case .irk(let irk) = identity, irk.key != nil { return irk }
            return nil
        }
    }

    /// The watched `irk` identity `address` resolves to, or nil (not resolvable, no key matches,
    /// or no key is watched).
    mutating func identity(of address: MACAddress, at time: Date) -> TagIdentity? {
        guard !ciphers.isEmpty, PrivateAddress.isResolvable(address) else { return nil }
        if let entry = cache[address] {
            // Refreshed at most once a minute: most look-ups stay reads.
            if time.timeIntervalSince(entry.lastHeard) > 60 { cache[address]?.lastHeard = time }
            return entry.identity
        }
        let identity = ciphers.first { PrivateAddress.resolves(address, with: $0.cipher) }?.identity
        if cache.count >= capacity { evict(before: time.addingTimeInterval(-Self.forgetAfter)) }
        cache[address] = Entry(identity: identity, lastHeard: time)
        return identity
    }

    /// Addresses cached, for tests.
    var cachedCount: Int { cache.count }

    private mutating func evict(before time: Date) {
        cache = cache.filter { $0.value.lastHeard >= time }
        if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
    }
}

extension AddressResolver {
    /// `identities` (what an advertisement names a tag by) with the watched `irk` identity its
    /// device address resolves to added, when there is one.
    mutating func resolving(_ identities: [TagIdentity], at time: Date) -> [TagIdentity] {
        guard !ciphers.isEmpty else { return identities }
        for case .address(let address) in identities {
            if let resolved = identity(of: address, at: time) { return identities + [resolved] }
        }
        return identities
    }
}
