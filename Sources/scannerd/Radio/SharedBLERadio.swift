import ScanContract

/// A radio source whose BLE receiver is the shared loop (``BLEFanOut``) instead of one of its
/// own per scan session: what the scan controller gets when the listening role runs beside it.
struct SharedBLERadio: RadioSource {
    let radio: any RadioSource
    let fanOut: BLEFanOut

    var name: String { radio.name }
    var ble: (any BLEScanner)? { fanOut }
    var wifi: (any WiFiScanner)? { radio.wifi }

    func prepare(for scanSwitch: ScanSwitch) async {
        await radio.prepare(for: scanSwitch)
    }
}
