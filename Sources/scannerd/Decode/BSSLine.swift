import RadioWire

/// One BSS as `scannerd decode --nl80211` prints it (one JSON object a line).
struct BSSLine: Encodable, Equatable {
    var bssid: String
    var ssid: String?
    /// MHz.
    var frequency: UInt32?
    /// dBm, from NL80211_BSS_SIGNAL_MBM.
    var signal: Double?
    /// 0–100, from NL80211_BSS_SIGNAL_UNSPEC (drivers without dBm).
    var signalUnspecified: UInt8?
    var seenMillisecondsAgo: UInt32?
    /// 0 authenticated, 1 associated, 2 IBSS joined.
    var status: UInt32?

    init(_ bss: NL80211BSS) {
        bssid = bss.bssid.description
        ssid = bss.ssid
        frequency = bss.frequency
        signal = bss.signalDBm
        signalUnspecified = bss.signalUnspecified
        seenMillisecondsAgo = bss.seenMillisecondsAgo
        status = bss.status
    }

    /// The BSS in the attribute stream of one NL80211_CMD_NEW_SCAN_RESULTS message (no nlmsghdr or
    /// genlmsghdr, as iw-style dump tools write it). Throws `WireError` when the attributes or the BSS
    /// break their format, or when there is no NL80211_ATTR_BSS.
    static func decode(attributeStream bytes: [UInt8]) throws(WireError) -> BSSLine {
        guard let bss = try NL80211BSS.fromScanResult(NetlinkAttribute.parse(bytes)) else {
            throw WireError(offset: 0, reason: "no NL80211_ATTR_BSS attribute")
        }
        return BSSLine(bss)
    }
}
