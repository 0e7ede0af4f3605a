#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOPosix

/// Which addresses webhook deliveries may reach, so a webhook cannot be used to make switchd
/// call its own host, the cloud's metadata service or the LAN behind it.
///
/// Never reached: link-local addresses (169.254.0.0/16, fe80::/10: cloud metadata services live
/// there), the unspecified address, multicast and the reserved IPv4 range. Reached only with
/// ``allowsPrivate`` (`--webhook-allow-private`): loopback (a receiver on switchd's own host,
/// such as Node-RED or Home Assistant beside it) and private addresses (10/8, 172.16/12,
/// 192.168/16, 100.64/10, fc00::/7). IPv4-mapped and NAT64 IPv6 addresses count as the IPv4
/// address they carry.
///
/// A host name is resolved with the C library's `getaddrinfo` (on NIO's thread pool, never on
/// Swift's cooperative pool) and refused when any of its addresses is: when the webhook is
/// created and again before each delivery, since what a name resolves to can change. The HTTP
/// client resolves the name once more when it connects; a name whose answer changes between the
/// two (DNS rebinding) is not caught by this check (docs/integrations.md).
struct WebhookDestinationPolicy: Sendable {
    var allowsPrivate = false
    /// Every address a host name stands for, empty when it resolves to none: ``systemResolve(_:)``
    /// unless a test gives names of its own (so tests ask no DNS server).
    var resolve: @Sendable (String) async -> [IPAddress] = Self.systemResolve

    /// What checking a host found.
    enum Verdict: Equatable, Sendable {
        case allowed
        /// The host is, or resolves to, an address deliveries may not reach; the reason says which kind.
        case refused(String)
        /// The name did not resolve now (it may later).
        case unresolved
    }

    /// Checks `host`: an IPv4 or IPv6 literal as it is, a name by every address it resolves to.
    func check(host: String) async -> Verdict {
        if let address = IPAddress(literal: host) {
            return verdict(for: [address])
        }
        let addresses = await resolve(host)
        return addresses.isEmpty ? .unresolved : verdict(for: addresses)
    }

    func verdict(for addresses: [IPAddress]) -> Verdict {
        for address in addresses {
            let kind = address.kind
            switch kind {
            case .global:
                continue
            case .loopback, .privateUse:
                if allowsPrivate { continue }
                return .refused("resolves to a \(kind.rawValue) address, which webhooks may reach only with --webhook-allow-private")
            case .linkLocal, .unspecified, .multicastOrReserved:
                return .refused("resolves to a \(kind.rawValue) address, which webhooks never reach")
            }
        }
        return .allowed
    }

    /// Every address the C library's `getaddrinfo` gives for `host`, asked on NIO's thread pool
    /// (it blocks); empty when it gives none.
    @Sendable static func systemResolve(_ host: String) async -> [IPAddress] {
        (try? await NIOThreadPool.singleton.runIfActive { getAddresses(host) }) ?? []
    }

    private static func getAddresses(_ host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry = list
        while let current = entry {
            if let address = IPAddress(current.pointee.ai_addr) { addresses.append(address) }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
