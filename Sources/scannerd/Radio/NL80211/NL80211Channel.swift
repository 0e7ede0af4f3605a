/// A request the Wi-Fi source sends to nl80211.
enum NL80211Request: Equatable, Sendable {
    /// NL80211_CMD_TRIGGER_SCAN with an acknowledgement asked for.
    case triggerScan(interfaceIndex: UInt32, settings: WiFiScanSettings)
    /// NL80211_CMD_GET_SCAN as a dump: one NL80211_CMD_NEW_SCAN_RESULTS message per BSS, then NLMSG_DONE.
    case getScan(interfaceIndex: UInt32)
}

/// A generic netlink socket talking nl80211 and already a member of its "scan" multicast group.
/// ``NL80211Socket`` is the real one; tests play the kernel behind this.
protocol NL80211Channel: AnyObject {
    /// Sends `request` and returns its nlmsg_seq, which the answers carry.
    func send(_ request: NL80211Request) throws -> UInt32
    /// The next datagram (one or more netlink messages), or nil when none arrives within
    /// `timeout`. Throws ``SystemError``; `ENOBUFS` means the kernel dropped messages for want of
    /// room in the receive buffer.
    func receive(timeout: Duration) throws(SystemError) -> [UInt8]?
    func close()
}
