#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `NOTIFY_SOCKET` as a unix socket address: an absolute path, or an abstract name written with
/// a leading `@` (sent as a leading NUL byte, with no trailing NUL).
struct NotifySocketAddress: Sendable {
    let text: String
    private let bytes: [UInt8]

    /// Throws ``SystemdNotifyError/unusableSocketAddress(_:)`` for anything else or an address
    /// longer than `sun_path`.
    init(_ text: String) throws {
        var bytes = Array(text.utf8)
        switch bytes.first {
        case UInt8(ascii: "/"): bytes.append(0)
        case UInt8(ascii: "@"): bytes[0] = 0
        default: throw SystemdNotifyError.unusableSocketAddress(text)
        }
        guard bytes.count > 1, bytes.count <= MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw SystemdNotifyError.unusableSocketAddress(text)
        }
        self.text = text
        self.bytes = bytes
    }

    /// Calls `body` with the filled-in address and its length.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) rethrows -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: bytes)
        }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count
        return try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(length)) }
        }
    }
}
