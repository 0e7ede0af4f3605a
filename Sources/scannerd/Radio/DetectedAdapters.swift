/// The radio adapters the kernel lists: Bluetooth controllers (`hci0`) and Wi-Fi PHYs (`phy0`).
struct DetectedAdapters: Sendable, Equatable {
    var bluetooth: [String]
    var wifi: [String]

    static let bluetoothClass = "/sys/class/bluetooth"
    static let wifiClass = "/sys/class/ieee80211"

    var isEmpty: Bool { bluetooth.isEmpty && wifi.isEmpty }
    var all: [String] { bluetooth + wifi }

    /// Reads sysfs. A class directory that does not exist (no driver loaded) lists nothing.
    static func detect() -> DetectedAdapters {
        DetectedAdapters(bluetooth: list(bluetoothClass), wifi: list(wifiClass))
    }

    private static func list(_ directory: String) -> [String] {
        do {
            return try FileSystem.contents(ofDirectory: directory).sorted()
        } catch {
            return []
        }
    }
}
