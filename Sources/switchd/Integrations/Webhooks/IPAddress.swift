#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address, for classifying where a webhook would go.
enum IPAddress: Hashable, Sendable {
    case v4(UInt32)
    case v6([UInt8])

    /// The kinds of address ``WebhookDestinationPolicy`` tells apart.
    enum Kind: String, Sendable {
        case global = "public"
        case loopback
        case privateUse = "private"
        case linkLocal = "link-local"
        case unspecified
        case multicastOrReserved = "multicast or reserved"
    }

    /// Parses an IPv4 dotted quad or an IPv6 literal (with or without brackets); nil for a name.
    init?(literal text: String) {
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            self = .v4(UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            self = .v6(withUnsafeBytes(of: &v6) { Array($0) })
            return
        }
        return nil
    }

    /// The address of a `sockaddr` that `getaddrinfo` returned; nil for another family.
    init?(_ socket: UnsafeMutablePointer<sockaddr>?) {
        guard let socket else { return nil }
        switch Int32(socket.pointee.sa_family) {
        case AF_INET:
            let address = socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            self = .v4(UInt32(bigEndian: address.s_addr))
        case AF_INET6:
            var address = socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self = .v6(withUnsafeBytes(of: &address) { Array($0) })
        default:
            return nil
        }
    }

    var kind: Kind {
        switch self {
        case .v4(let value):
            return Self.kind(ofV4: value)
        case .v6(let bytes):
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return Self.kind(ofV4: Self.lastFour(bytes))   // ::ffff:a.b.c.d
            }
            if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
                return Self.kind(ofV4: Self.lastFour(bytes))   // 64:ff9b::a.b.c.d (NAT64)
            }
            if bytes.allSatisfy({ $0 == 0 }) { return .unspecified }
            if bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] == 1 { return .loopback }
            if bytes == Self.awsMetadataV6 { return .linkLocal }        // fd00:ec2::254, a cloud metadata service
            if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return .linkLocal }
            if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0xC0 { return .multicastOrReserved }   // fec0::/10, old site-local
            if bytes[0] & 0xFE == 0xFC { return .privateUse }
            // ff00::/8; ::/8 less the mapped, NAT64 and loopback forms above (IPv4-compatible
            // addresses, the local-use NAT64 64:ff9b:1::/48 and the rest).
            if bytes[0] == 0xFF || bytes[0] == 0 { return .multicastOrReserved }
            return .global
        }
    }

    /// A cloud metadata service's IPv6 address inside fc00::/7, which loopback and private
    /// addresses being allowed must not open.
    private static let awsMetadataV6: [UInt8] = [0xFD, 0x00, 0x0E, 0xC2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54]

    private static func lastFour(_ bytes: [UInt8]) -> UInt32 {
        bytes[12..<16].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func kind(ofV4 value: UInt32) -> Kind {
        func within(_ network: UInt32, _ prefix: UInt32) -> Bool {
            value >> (32 - prefix) == network >> (32 - prefix)
        }
        if within(0x0000_0000, 8) { return .unspecified }            // 0.0.0.0/8
        if within(0x7F00_0000, 8) { return .loopback }               // 127.0.0.0/8
        if within(0xA9FE_0000, 16) || value == 0x6464_64C8 { return .linkLocal }   // 169.254.0.0/16; 100.100.100.200, a cloud metadata service
        if within(0x0A00_0000, 8) || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16) || within(0x6440_0000, 10) {
            return .privateUse                                       // 10/8, 172.16/12, 192.168/16, 100.64/10
        }
        if within(0xE000_0000, 4) || within(0xF000_0000, 4) || within(0xC000_0000, 24) || within(0xC612_0000, 15) {
            return .multicastOrReserved                              // 224/4, 240/4, 192.0.0/24, 198.18/15
        }
        return .global
    }
}
