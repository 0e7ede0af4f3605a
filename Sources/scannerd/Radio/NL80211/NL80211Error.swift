import Glibc

/// Why a Wi-Fi scan could not be made.
enum NL80211Error: Error, CustomStringConvertible, Equatable {
    case noSuchInterface(String)
    /// The interface exists but is not a cfg80211 (nl80211) device.
    case notWireless(String)
    /// No interface was named and none has /sys/class/net/*/phy80211.
    case noWirelessInterface
    /// A libnl call failed while setting up the socket (`code` is libnl's, with its text).
    case netlink(call: String, code: CInt, text: String)
    /// NL80211_CMD_TRIGGER_SCAN was refused with EPERM: no CAP_NET_ADMIN.
    case permissionDenied(interface: String)
    /// The interface is down (`ip link set NAME up`).
    case interfaceDown(String)
    /// The kernel refused the trigger with `errno`, with its extended-ack message when it sent one.
    case triggerRefused(interface: String, errno: CInt, message: String?)
    /// The kernel refused the results dump.
    case dumpRefused(interface: String, errno: CInt, message: String?)
    /// NL80211_CMD_SCAN_ABORTED arrived for the scan.
    case aborted(interface: String)
    /// Neither NEW_SCAN_RESULTS nor SCAN_ABORTED arrived in time, or a dump stalled.
    case timedOut(interface: String, waiting: String)
    /// The socket overran (ENOBUFS) more often than the source resynchronises in one scan.
    case tooManyOverruns(interface: String, count: Int)

    var description: String {
        switch self {
        case .noSuchInterface(let name):
            "no network interface named \(name) (see `ip link` or /sys/class/net)"
        case .notWireless(let name):
            "\(name) is not a Wi-Fi interface (no /sys/class/net/\(name)/phy80211)"
        case .noWirelessInterface:
            "no Wi-Fi interface found in /sys/class/net; name one with --wifi-interface"
        case .netlink(let call, let code, let text):
            "\(call) failed: \(text) (libnl error \(code))"
        case .permissionDenied(let name):
            "triggering a scan on \(name) needs CAP_NET_ADMIN"
        case .interfaceDown(let name):
            "\(name) is down; bring it up with `ip link set \(name) up`"
        case .triggerRefused(let name, let code, let message):
            "the kernel refused to scan on \(name): \(Self.describe(code, message))"
        case .dumpRefused(let name, let code, let message):
            "the kernel refused the scan results of \(name): \(Self.describe(code, message))"
        case .aborted(let name):
            "the scan on \(name) was aborted"
        case .timedOut(let name, let waiting):
            "no \(waiting) from \(name) in time"
        case .tooManyOverruns(let name, let count):
            "the netlink socket for \(name) overran \(count) times in one scan (ENOBUFS)"
        }
    }

    private static func describe(_ code: CInt, _ message: String?) -> String {
        String(cString: strerror(code)) + " (errno \(code))" + (message.map { ": \($0)" } ?? "")
    }

    /// True for failures that mean the interface went away or down, rather than a scan that went wrong.
    var isInterfaceLost: Bool {
        switch self {
        case .noSuchInterface, .interfaceDown: true
        case .triggerRefused(_, let code, _), .dumpRefused(_, let code, _): code == ENODEV || code == ENETDOWN
        default: false
        }
    }
}
