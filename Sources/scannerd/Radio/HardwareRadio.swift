import Logging
import ScanContract

/// The machine's own radios: a Bluetooth controller through a raw HCI socket and a Wi-Fi interface
/// through nl80211, either of which may be absent. Both feed the scan session at once.
struct HardwareRadio: RadioSource {
    let name = "hardware"
    let ble: (any BLEScanner)?
    let wifi: (any WiFiScanner)?

    init(
        bluetooth: String?, wifi: String?, settings: HardwareRadioSettings, counters: RadioCounters, events: EventLog, logger: Logger,
        live: LiveSettings? = nil
    ) {
        if let bluetooth { counters.register(bluetooth, kind: .ble) }
        if let wifi { counters.register(wifi, kind: .wifi) }
        var current: (@Sendable () -> HCIScanSettings)?
        if let live {
            current = { live.ble }
        }
        ble = bluetooth.map {
            HCIBLEScanner(device: $0, settings: settings.ble, counters: counters, events: events, logger: logger, currentSettings: current)
        }
        self.wifi = wifi.map {
            NL80211WiFiScanner(interface: $0, settings: settings.wifi, counters: counters, events: events, logger: logger)
        }
    }

    /// Real radios scan wherever they are.
    func prepare(for scanSwitch: ScanSwitch) async {}
}

/// The `scannerd run` options of the real radios.
struct HardwareRadioSettings: Sendable, Equatable {
    /// Nil: the first controller the kernel lists.
    var hciDevice: String?
    var ble = HCIScanSettings()
    /// Nil: the first Wi-Fi interface the kernel lists.
    var wifiInterface: String?
    var wifi = WiFiScanSettings()
}
