#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Tells systemd how the daemon is doing, as sd_notify(3) does: one datagram of `KEY=VALUE`
/// lines to the unix socket named by `$NOTIFY_SOCKET`.
///
/// Without `NOTIFY_SOCKET` (not started by systemd, or not `Type=notify`) every call does nothing.
public struct SystemdNotifier: Sendable {
    /// Where messages go; nil when systemd asked for none.
    let address: NotifySocketAddress?

    /// Reads `NOTIFY_SOCKET` from `environment`.
    ///
    /// - Throws: ``SystemdNotifyError/unusableSocketAddress(_:)`` when it is set but unusable.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        address = try environment["NOTIFY_SOCKET"].map(NotifySocketAddress.init)
    }

    /// Whether messages are sent anywhere.
    public var isEnabled: Bool { address != nil }

    /// Sends `states` as one message; nothing when disabled.
    ///
    /// Never blocks: when systemd's socket queue is full the message is not sent and `EAGAIN` is
    /// thrown, rather than holding one of the concurrency pool's threads.
    ///
    /// - Throws: ``SystemdNotifyError/system(call:errno:)`` when the socket cannot be made or the
    ///   datagram is not accepted (systemd gone, or its queue full).
    public func notify(_ states: NotifyState...) throws {
        try notify(states)
    }

    /// Sends `states` as one message; nothing when disabled or when `states` is empty.
    public func notify(_ states: [NotifyState]) throws {
        guard let address, !states.isEmpty else { return }
        let message = Array(states.map(\.line).joined(separator: "\n").utf8)
        let descriptor = socket(AF_UNIX, Self.datagramSocketType, 0)
        guard descriptor >= 0 else { throw SystemdNotifyError.system(call: "socket", errno: errno) }
        defer { close(descriptor) }
        while true {
            let sent = message.withUnsafeBytes { bytes in
                address.withSockaddr { sockaddr, length in
                    sendto(descriptor, bytes.baseAddress, bytes.count, Self.sendFlags, sockaddr, length)
                }
            }
            if sent >= 0 { return }
            if errno != EINTR { throw SystemdNotifyError.system(call: "sendto", errno: errno) }
        }
    }

    #if canImport(Glibc)
    private static let datagramSocketType = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
    #else
    private static let datagramSocketType = SOCK_DGRAM
    private static let sendFlags = MSG_DONTWAIT
    #endif
}

extension SystemdNotifier {
    /// Sends nothing: for tests and for runs outside systemd.
    public static var disabled: SystemdNotifier { SystemdNotifier(address: nil) }

    private init(address: NotifySocketAddress?) {
        self.address = address
    }
}
