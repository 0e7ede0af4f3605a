// Numbers from the kernel's `include/uapi/linux/nl80211.h` and `linux/ieee80211.h`, named exactly as
// there. Scan cannot import the C headers, so they are repeated here, once.

/// Command: scan results (the answer to NL80211_CMD_GET_SCAN, one message per BSS).
let NL80211_CMD_NEW_SCAN_RESULTS: UInt8 = 34

let NL80211_ATTR_IFINDEX: UInt16 = 3
let NL80211_ATTR_GENERATION: UInt16 = 46
/// Nested `enum nl80211_bss` attributes of one BSS.
let NL80211_ATTR_BSS: UInt16 = 47
let NL80211_ATTR_WDEV: UInt16 = 153

let NL80211_BSS_BSSID: UInt16 = 1
let NL80211_BSS_FREQUENCY: UInt16 = 2
let NL80211_BSS_TSF: UInt16 = 3
let NL80211_BSS_BEACON_INTERVAL: UInt16 = 4
let NL80211_BSS_CAPABILITY: UInt16 = 5
let NL80211_BSS_INFORMATION_ELEMENTS: UInt16 = 6
/// Signal strength in mBm (100 × dBm), s32.
let NL80211_BSS_SIGNAL_MBM: UInt16 = 7
/// Signal strength in unspecified units 0–100, u8.
let NL80211_BSS_SIGNAL_UNSPEC: UInt16 = 8
let NL80211_BSS_STATUS: UInt16 = 9
let NL80211_BSS_SEEN_MS_AGO: UInt16 = 10
let NL80211_BSS_BEACON_IES: UInt16 = 11
let NL80211_BSS_CHAN_WIDTH: UInt16 = 12
/// CLOCK_BOOTTIME of the last sighting, ns, u64.
let NL80211_BSS_LAST_SEEN_BOOTTIME: UInt16 = 15

/// Information element: SSID (`linux/ieee80211.h`).
let WLAN_EID_SSID: UInt8 = 0
