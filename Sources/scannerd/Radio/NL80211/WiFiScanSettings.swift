/// How the Wi-Fi source asks the kernel to scan.
struct WiFiScanSettings: Sendable, Equatable {
    /// Active scans send probe requests (wildcard SSID) on each channel; passive ones only listen
    /// for beacons, which takes longer.
    enum ScanType: String, CaseIterable, Sendable {
        case active, passive
    }

    var scanType: ScanType = .active
    /// NL80211_SCAN_FLAG_FLUSH: the kernel forgets its cached results before scanning.
    var flush = false
}
