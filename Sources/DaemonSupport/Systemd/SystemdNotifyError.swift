/// Why an sd_notify message could not be sent.
public enum SystemdNotifyError: Error, Equatable, CustomStringConvertible {
    /// `NOTIFY_SOCKET` is neither an absolute path nor an abstract name starting with `@`, or it
    /// is longer than a `sockaddr_un` holds.
    case unusableSocketAddress(String)
    /// A system call failed.
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .unusableSocketAddress(let address):
            "NOTIFY_SOCKET=\(address) is not an absolute path or an @abstract name that fits a unix socket address"
        case .system(let call, let errno):
            "\(call) failed for the systemd notify socket: errno \(errno)"
        }
    }
}
