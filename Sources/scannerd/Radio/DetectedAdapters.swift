/// The radio adapters the kernel lists: Bluetooth controllers (`hci0`), Wi-Fi PHYs (`phy0`) and
/// the Wi-Fi network interfaces that scan (`wlan0`).
struct DetectedAdapters: Sendable, Equatable {
    var bluetooth: [String]
    var wifi: [String]
    var wifiInterfaces: [String] = []

    static let bluetoothClass = "/sys/class/bluetooth"
    static let wifiClass = "/sys/class/ieee80211"

    var isEmpty: Bool { bluetooth.isEmpty && wifi.isEmpty }
    var all: [String] { bluetooth + wifi }

    /// For messages: what was seen.
    var summary: String {
        let seen = bluetooth + wifi + wifiInterfaces
        return seen.isEmpty ? "the kernel lists none" : "seen: " + seen.joined(separator: ", ")
    }

    /// Reads sysfs. A class directory that does not exist (no driver loaded) lists nothing.
    static func detect() -> DetectedAdapters {
        DetectedAdapters(bluetooth: list(bluetoothClass), wifi: list(wifiClass), wifiInterfaces: WiFiInterface.wirelessNames())
    }

    private static func list(_ directory: String) -> [String] {
        do {
            return try FileSystem.contents(ofDirectory: directory).sorted()
        } catch {
            return []
        }
    }
}
