/// Which emitter `GET /v1/measurements?emitter=` keeps: `ap:<bssid>` (Wi-Fi readings of that
/// access point), `beacon:<uuid>/<major>/<minor>` (BLE readings of that beacon, whatever device
/// address sent them), or a bare MAC address (readings of that BSSID or BLE device address).
public enum EmitterFilter: Hashable, Sendable {
    case accessPoint(BSSID)
    case beacon(BeaconID)
    case address(MACAddress)

    /// - Throws: ``FieldError`` saying which forms are accepted.
    public init(_ text: String) throws(FieldError) {
        if text.hasPrefix("ap:") {
            self = .accessPoint(try BSSID(String(text.dropFirst(3))))
        } else if text.hasPrefix("beacon:") {
            self = .beacon(try BeaconID(parsing: text.dropFirst(7)))
        } else if let address = try? MACAddress(text) {
            self = .address(address)
        } else {
            throw FieldError("must be ap:<bssid>, beacon:<uuid>/<major>/<minor> or a MAC address, got \"\(text.prefix(80))\"")
        }
    }
}
