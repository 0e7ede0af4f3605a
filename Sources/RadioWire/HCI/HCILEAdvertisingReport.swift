/// LE Advertising Report event (Core Vol 4, Part E, §7.7.65.2): legacy advertising PDUs, one or
/// more reports per event.
///
/// Reports are read one after the other, each with all its fields (the layout BlueZ's
/// `monitor/packet.c` and controllers use). An event whose reports run past its end, or leave
/// bytes over, throws: the later reports cannot be located, so none of them is guessed.
public struct HCILEAdvertisingReport: Hashable, Sendable {
    public struct Report: Hashable, Sendable {
        /// Event_Type: 0 ADV_IND, 1 ADV_DIRECT_IND, 2 ADV_SCAN_IND, 3 ADV_NONCONN_IND, 4 SCAN_RSP.
        public var eventType: UInt8
        /// Address_Type: 0 public, 1 random, 2 public identity, 3 random static identity.
        public var addressType: UInt8
        /// Address (sent least significant octet first; held here in the usual order).
        public var address: EUI48
        /// Data: the advertising or scan response data (AD structures).
        public var data: [UInt8]
        /// Offset of `data`'s first byte in the buffer the event was decoded from.
        public var dataOffset: Int
        /// RSSI in dBm; 127 means not available.
        public var rssi: Int8
    }

    /// One entry per report, in the order of the event (Num_Reports of them).
    public var reports: [Report]

    /// Throws when `event` is not this subevent or its reports do not fit it exactly.
    public init(_ event: HCILEMetaEvent) throws(WireError) {
        var reader = event.parameterReader
        guard event.subeventCode == EVT_LE_ADVERTISING_REPORT else {
            throw reader.error("subevent 0x\(hexByte(event.subeventCode)) is not an LE Advertising Report")
        }
        reports = try reader.reports { reader throws(WireError) in
            let eventType = try reader.u8("Event_Type")
            let addressType = try reader.u8("Address_Type")
            let address = try reader.bluetoothAddress("Address")
            let length = Int(try reader.u8("Data_Length"))
            let dataOffset = reader.offset
            let data = try reader.take(length, "Data")
            let rssi = try reader.i8("RSSI")
            return Report(eventType: eventType, addressType: addressType, address: address,
                          data: data, dataOffset: dataOffset, rssi: rssi)
        }
    }
}

extension ByteReader {
    /// Num_Reports (1–255) and that many reports read by `report`, which must end exactly at the
    /// end of the bytes: reports that overrun or leave bytes over throw.
    mutating func reports<Report>(_ report: (inout ByteReader) throws(WireError) -> Report) throws(WireError) -> [Report] {
        let count = Int(try u8("Num_Reports"))
        guard count > 0 else { throw error("Num_Reports is 0") }
        var reports: [Report] = []
        for _ in 0..<count {
            reports.append(try report(&self))
        }
        guard isAtEnd else { throw error("\(remaining) bytes left after \(count) reports") }
        return reports
    }

    /// A Bluetooth device address: six octets, least significant first (Core Vol 4, Part E, §5.2).
    mutating func bluetoothAddress(_ field: String) throws(WireError) -> EUI48 {
        EUI48(rawValue: try u48le(field))
    }
}
