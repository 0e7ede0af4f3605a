/// One BSS from an NL80211_CMD_NEW_SCAN_RESULTS message (the nested NL80211_ATTR_BSS attributes,
/// `enum nl80211_bss` in `linux/nl80211.h`).
public struct NL80211BSS: Hashable, Sendable {
    /// NL80211_BSS_BSSID.
    public var bssid: EUI48
    /// NL80211_BSS_FREQUENCY, MHz.
    public var frequency: UInt32?
    /// NL80211_BSS_SIGNAL_MBM converted to dBm (mBm / 100).
    public var signalDBm: Double?
    /// NL80211_BSS_SIGNAL_UNSPEC: signal in unspecified units 0–100 (drivers without dBm).
    public var signalUnspecified: UInt8?
    /// NL80211_BSS_SEEN_MS_AGO: age of the sighting when the dump was made, ms.
    public var seenMillisecondsAgo: UInt32?
    /// NL80211_BSS_LAST_SEEN_BOOTTIME: CLOCK_BOOTTIME of the sighting, ns.
    public var lastSeenBoottime: UInt64?
    /// NL80211_BSS_STATUS: 0 authenticated, 1 associated, 2 IBSS joined.
    public var status: UInt32?
    /// NL80211_BSS_INFORMATION_ELEMENTS (probe response or beacon IEs).
    public var informationElements: [InformationElement]
    /// The SSID from the SSID element, decoded as UTF-8 (nil when there is no SSID element;
    /// empty for a hidden network).
    public var ssid: String?

    /// Decodes the nested attributes of NL80211_ATTR_BSS. Throws when the BSSID is missing or an
    /// attribute or information element breaks its format.
    public init(_ attributes: [NetlinkAttribute]) throws(WireError) {
        guard let bssidAttribute = attributes.first(NL80211_BSS_BSSID) else {
            throw WireError(offset: attributes.first?.payloadOffset ?? 0, reason: "BSS without NL80211_BSS_BSSID")
        }
        let octets = bssidAttribute.payload
        guard octets.count == 6 else {
            throw WireError(offset: bssidAttribute.payloadOffset, reason: "NL80211_BSS_BSSID must be 6 octets, got \(octets.count)")
        }
        bssid = EUI48(rawValue: octets.reduce(0) { $0 << 8 | UInt64($1) })
        frequency = try attributes.first(NL80211_BSS_FREQUENCY)?.u32()
        signalDBm = try attributes.first(NL80211_BSS_SIGNAL_MBM).map { attribute throws(WireError) in Double(try attribute.i32()) / 100 }
        signalUnspecified = try attributes.first(NL80211_BSS_SIGNAL_UNSPEC)?.u8()
        seenMillisecondsAgo = try attributes.first(NL80211_BSS_SEEN_MS_AGO)?.u32()
        lastSeenBoottime = try attributes.first(NL80211_BSS_LAST_SEEN_BOOTTIME)?.u64()
        status = try attributes.first(NL80211_BSS_STATUS)?.u32()
        let ies = attributes.first(NL80211_BSS_INFORMATION_ELEMENTS) ?? attributes.first(NL80211_BSS_BEACON_IES)
        informationElements = try ies.map { attribute throws(WireError) in
            try InformationElement.parse(attribute.payload, origin: attribute.payloadOffset)
        } ?? []
        ssid = informationElements.first { $0.id == WLAN_EID_SSID }.map { String(decoding: $0.data, as: UTF8.self) }
    }

    /// The BSS in the attributes of one NL80211_CMD_NEW_SCAN_RESULTS message (after the generic
    /// netlink header); nil when the message carries no NL80211_ATTR_BSS.
    public static func fromScanResult(_ attributes: [NetlinkAttribute]) throws(WireError) -> NL80211BSS? {
        guard let bss = attributes.first(NL80211_ATTR_BSS) else { return nil }
        return try NL80211BSS(bss.nested())
    }
}
