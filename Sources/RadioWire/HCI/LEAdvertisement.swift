/// One received advertisement, legacy or extended, reduced to what a scanner keeps.
public struct LEAdvertisement: Hashable, Sendable {
    public var address: EUI48
    public var addressType: UInt8
    /// RSSI in dBm, nil when the controller reported it as not available.
    public var rssi: Int?
    /// Advertised TX power in dBm from an extended report, nil otherwise or when not available.
    public var txPower: Int?
    /// The AD structures' bytes.
    public var data: [UInt8]
    /// Offset of `data`'s first byte in the buffer the event was decoded from.
    public var dataOffset: Int
    /// True when it came from an LE Extended Advertising Report.
    public var isExtended: Bool

    init(_ report: HCILEAdvertisingReport.Report) {
        address = report.address
        addressType = report.addressType
        rssi = report.rssi == HCI_RSSI_NOT_AVAILABLE ? nil : Int(report.rssi)
        txPower = nil
        data = report.data
        dataOffset = report.dataOffset
        isExtended = false
    }

    init(_ report: HCILEExtendedAdvertisingReport.Report) {
        address = report.address
        addressType = report.addressType
        rssi = report.rssi == HCI_RSSI_NOT_AVAILABLE ? nil : Int(report.rssi)
        txPower = report.txPower == HCI_TX_POWER_NOT_AVAILABLE ? nil : Int(report.txPower)
        data = report.data
        dataOffset = report.dataOffset
        isExtended = true
    }
}
