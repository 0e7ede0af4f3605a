import Glibc

/// A network interface the Wi-Fi source scans on.
struct WiFiInterface: Sendable, Equatable {
    var name: String
    /// The kernel's ifindex, which nl80211 requests and events carry. It changes when the
    /// interface is created again, so it is looked up for every scan.
    var index: UInt32

    static let netClass = "/sys/class/net"

    /// Looks `name` up. Throws ``NL80211Error/noSuchInterface(_:)`` or ``NL80211Error/notWireless(_:)``.
    static func named(_ name: String) throws(NL80211Error) -> WiFiInterface {
        let index = if_nametoindex(name)
        guard index != 0 else { throw .noSuchInterface(name) }
        guard isWireless(name) else { throw .notWireless(name) }
        return WiFiInterface(name: name, index: index)
    }

    /// cfg80211 devices have a `phy80211` link in sysfs (and `wireless` with wireless extensions).
    static func isWireless(_ name: String) -> Bool {
        FileSystem.exists("\(netClass)/\(name)/phy80211") || FileSystem.exists("\(netClass)/\(name)/wireless")
    }

    /// The Wi-Fi interfaces the kernel lists, sorted by name; none when sysfs cannot be read.
    static func wirelessNames() -> [String] {
        do {
            return try FileSystem.contents(ofDirectory: netClass).filter(isWireless).sorted()
        } catch {
            return []
        }
    }
}
