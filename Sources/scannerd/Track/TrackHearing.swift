#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RadioWire
import ScanContract

/// One advertisement as track mode takes it: every identity it names a tag by, how strongly it
/// was heard (dBm), when, and the plain Eddystone-TLM telemetry it carried. Made from a raw HCI
/// report (``HeardAdvertisement``) or from a radio source's reading (the simulated radio's).
struct TrackHearing: Sendable, Hashable {
    var identities: [TagIdentity]
    var rssi: Int
    var time: Date
    /// Plain telemetry only: encrypted TLM is recognised by RadioWire and left alone here.
    var telemetry: EddystoneTLM.Telemetry? = nil

    /// Nil when the controller did not report an RSSI.
    init?(_ heard: HeardAdvertisement) {
        guard let rssi = heard.advertisement.rssi else { return nil }
        self.init(identities: heard.tagIdentities, rssi: rssi, time: heard.time)
        if case .plain(let telemetry) = heard.telemetry { self.telemetry = telemetry }
    }

    /// A BLE reading names its iBeacon and its address; nil for a Wi-Fi reading.
    init?(_ reading: RadioReading) {
        guard case .ble(let ble) = reading.observation else { return nil }
        let identities: [TagIdentity] = [.iBeacon(ble.beacon), .address(MACAddress(rawValue: ble.address.rawValue))]
        self.init(identities: identities, rssi: reading.rssi, time: reading.time)
    }

    init(identities: [TagIdentity], rssi: Int, time: Date, telemetry: EddystoneTLM.Telemetry? = nil) {
        self.identities = identities
        self.rssi = rssi
        self.time = time
        self.telemetry = telemetry
    }
}
