/// "Only our access points": the Wi-Fi readings a scanner keeps, by BSSID or by SSID. A reading
/// is kept when its BSSID or its SSID is listed; BLE readings are not affected. Set by the admin
/// with the switch (`PATCH /v1/scanners/{id}/switch {"allowList": …}`, `null` to keep
/// everything) and applied by scannerd before a reading reaches its spool.
public struct ScanAllowList: Codable, Hashable, Sendable {
    public var bssids: [BSSID]
    public var ssids: [String]

    public init(bssids: [BSSID] = [], ssids: [String] = []) {
        self.bssids = bssids
        self.ssids = ssids
    }

    public static let maxEntries = 1_000

    enum CodingKeys: String, CodingKey {
        case bssids, ssids
    }

    /// Either list may be left out (none of that kind).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        bssids = try c.decodeUnlessAbsent([BSSID].self, forKey: .bssids) ?? []
        ssids = try c.decodeUnlessAbsent([String].self, forKey: .ssids) ?? []
    }

    /// Something listed, at most ``maxEntries`` of each, SSIDs of 1 to 32 bytes.
    public func validate() throws(ValidationError) {
        guard !bssids.isEmpty || !ssids.isEmpty else {
            throw ValidationError(field: "allowList", reason: "must list a BSSID or an SSID; send null to keep every access point")
        }
        guard bssids.count <= Self.maxEntries else {
            throw ValidationError(field: "allowList.bssids", reason: "must list at most \(Self.maxEntries), got \(bssids.count)")
        }
        guard ssids.count <= Self.maxEntries else {
            throw ValidationError(field: "allowList.ssids", reason: "must list at most \(Self.maxEntries), got \(ssids.count)")
        }
        for (index, ssid) in ssids.enumerated() where !(1...Measurement.maxSSIDBytes).contains(ssid.utf8.count) {
            throw ValidationError(field: "allowList.ssids[\(index)]", reason: "must be 1 to \(Measurement.maxSSIDBytes) bytes, got \(ssid.utf8.count)")
        }
    }

    /// Whether a scanner under this list keeps the reading.
    public func allows(_ observation: Observation) -> Bool {
        guard case .wifi(let wifi) = observation else { return true }
        return bssids.contains(wifi.bssid) || ssids.contains(wifi.ssid)
    }
}
