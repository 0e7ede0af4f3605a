/// LE Extended Advertising Report event (Bluetooth 5; Core Vol 4, Part E, §7.7.65.13), one or
/// more reports per event, read one after the other like `HCILEAdvertisingReport`.
public struct HCILEExtendedAdvertisingReport: Hashable, Sendable {
    public struct Report: Hashable, Sendable {
        /// Event_Type: bit 0 connectable, 1 scannable, 2 directed, 3 scan response, 4 legacy,
        /// bits 5–6 data status (0 complete, 1 more to come, 2 truncated).
        public var eventType: UInt16
        /// Address_Type: 0 public, 1 random, 2/3 identity, 0xFF anonymous.
        public var addressType: UInt8
        /// Address (held in the usual order).
        public var address: EUI48
        /// Primary_PHY: 1 LE 1M, 3 LE Coded.
        public var primaryPHY: UInt8
        /// Secondary_PHY: 0 none, 1 LE 1M, 2 LE 2M, 3 LE Coded.
        public var secondaryPHY: UInt8
        /// Advertising_SID: 0x00–0x0F, 0xFF none.
        public var advertisingSID: UInt8
        /// TX_Power in dBm; 127 means not available.
        public var txPower: Int8
        /// RSSI in dBm; 127 means not available.
        public var rssi: Int8
        /// Periodic_Advertising_Interval in units of 1.25 ms; 0 when there is none.
        public var periodicAdvertisingInterval: UInt16
        /// Direct_Address_Type.
        public var directAddressType: UInt8
        /// Direct_Address (for directed advertising).
        public var directAddress: EUI48
        /// Data: the advertising or scan response data (AD structures).
        public var data: [UInt8]
        /// Offset of `data`'s first byte in the buffer the event was decoded from.
        public var dataOffset: Int

        /// Event_Type bits 5–6: 0 complete, 1 incomplete with more to come, 2 incomplete and truncated.
        public var dataStatus: UInt8 { UInt8(truncatingIfNeeded: (eventType >> 5) & 0x3) }
    }

    /// One entry per report (Num_Reports of them).
    public var reports: [Report]

    /// Throws when `event` is not this subevent or its reports do not fit it exactly.
    public init(_ event: HCILEMetaEvent) throws(WireError) {
        var reader = event.parameterReader
        guard event.subeventCode == BT_HCI_EVT_LE_EXT_ADV_REPORT else {
            throw reader.error("subevent 0x\(hexByte(event.subeventCode)) is not an LE Extended Advertising Report")
        }
        reports = try reader.reports { reader throws(WireError) in
            let eventType = try reader.u16le("Event_Type")
            let addressType = try reader.u8("Address_Type")
            let address = try reader.bluetoothAddress("Address")
            let primaryPHY = try reader.u8("Primary_PHY")
            let secondaryPHY = try reader.u8("Secondary_PHY")
            let sid = try reader.u8("Advertising_SID")
            let txPower = try reader.i8("TX_Power")
            let rssi = try reader.i8("RSSI")
            let interval = try reader.u16le("Periodic_Advertising_Interval")
            let directAddressType = try reader.u8("Direct_Address_Type")
            let directAddress = try reader.bluetoothAddress("Direct_Address")
            let length = Int(try reader.u8("Data_Length"))
            let dataOffset = reader.offset
            let data = try reader.take(length, "Data")
            return Report(eventType: eventType, addressType: addressType, address: address,
                          primaryPHY: primaryPHY, secondaryPHY: secondaryPHY, advertisingSID: sid,
                          txPower: txPower, rssi: rssi, periodicAdvertisingInterval: interval,
                          directAddressType: directAddressType, directAddress: directAddress,
                          data: data, dataOffset: dataOffset)
        }
    }
}
