/// HCI packets built by hand from the Bluetooth Core Specification (Vol 4, Part E, §5.4.4, §7.7).
enum HCIFixtures {
    /// The iBeacon's proximity UUID in the fixtures: 01 02 … 10.
    static let uuid: [UInt8] = Array(1...16)

    /// LE Meta event, LE Advertising Report, one legacy report carrying an iBeacon.
    static let iBeaconReport: [UInt8] = [
        0x3E,                               // Event_Code: LE Meta
        0x2A,                               // Parameter_Total_Length: 42
        0x02,                               // Subevent_Code: LE Advertising Report
        0x01,                               // Num_Reports: 1
        0x03,                               // Event_Type[0]: ADV_NONCONN_IND
        0x00,                               // Address_Type[0]: public
        0x66, 0x55, 0x44, 0x33, 0x22, 0x11, // Address[0]: 11:22:33:44:55:66, least significant first
        0x1E,                               // Data_Length[0]: 30
        0x02, 0x01, 0x06,                   //   AD: length 2, Flags, LE General Discoverable + BR/EDR not supported
        0x1A, 0xFF,                         //   AD: length 26, Manufacturer Specific Data
        0x4C, 0x00,                         //     company 0x004C (Apple), little-endian
        0x02, 0x15,                         //     iBeacon type 0x02, length 0x15
    ] + uuid + [                            //     proximity UUID
        0x00, 0x07,                         //     major 7 (big-endian)
        0x01, 0x00,                         //     minor 256
        0xC5,                               //     measured power −59 dBm
        0xC5,                               // RSSI[0]: −59 dBm
    ]

    /// LE Advertising Report with two reports, the second a scan response with a name.
    static let twoReports: [UInt8] = [
        0x3E,                               // Event_Code: LE Meta
        0x1C,                               // Parameter_Total_Length: 28
        0x02,                               // Subevent_Code: LE Advertising Report
        0x02,                               // Num_Reports: 2
        0x00,                               // Event_Type: ADV_IND
        0x01,                               // Address_Type: random
        0x01, 0x02, 0x03, 0x04, 0x05, 0xC6, // Address: c6:05:04:03:02:01
        0x03,                               // Data_Length: 3
        0x02, 0x01, 0x06,                   //   AD: Flags
        0xBA,                               // RSSI: −70 dBm
        0x04,                               // Event_Type: SCAN_RSP
        0x01,                               // Address_Type: random
        0x01, 0x02, 0x03, 0x04, 0x05, 0xC6, // Address: c6:05:04:03:02:01
        0x03,                               // Data_Length: 3
        0x02, 0x09, 0x41,                   //   AD: Complete Local Name "A"
        0x7F,                               // RSSI: 127, not available
    ]

    /// LE Extended Advertising Report, one report carrying an Eddystone-UID frame.
    static let extendedEddystone: [UInt8] = [
        0x3E,                               // Event_Code: LE Meta
        0x36,                               // Parameter_Total_Length: 54
        0x0D,                               // Subevent_Code: LE Extended Advertising Report
        0x01,                               // Num_Reports: 1
        0x10, 0x00,                         // Event_Type: legacy, complete
        0x00,                               // Address_Type: public
        0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, // Address: ff:ee:dd:cc:bb:aa
        0x01,                               // Primary_PHY: LE 1M
        0x00,                               // Secondary_PHY: none
        0xFF,                               // Advertising_SID: none
        0x7F,                               // TX_Power: not available
        0xB0,                               // RSSI: −80 dBm
        0x00, 0x00,                         // Periodic_Advertising_Interval: none
        0x00,                               // Direct_Address_Type
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // Direct_Address
        0x1C,                               // Data_Length: 28
        0x03, 0x03, 0xAA, 0xFE,             //   AD: Complete List of 16-bit UUIDs: 0xFEAA
        0x17, 0x16, 0xAA, 0xFE,             //   AD: length 23, Service Data 0xFEAA
        0x00,                               //     frame type: UID
        0xEB,                               //     ranging data: −21 dBm at 0 m
        0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, // namespace
        0x20, 0x21, 0x22, 0x23, 0x24, 0x25, //     instance
        0x00, 0x00,                         //     reserved
    ]

    /// Command Complete for HCI_Reset (OGF 0x03, OCF 0x0003), status success.
    static let resetComplete: [UInt8] = [
        0x0E,                               // Event_Code: Command Complete
        0x04,                               // Parameter_Total_Length: 4
        0x01,                               // Num_HCI_Command_Packets: 1
        0x03, 0x0C,                         // Command_Opcode: 0x0C03
        0x00,                               // Return_Parameters: Status success
    ]

    /// Command Status for LE Create Connection (OGF 0x08, OCF 0x000D), pending.
    static let createConnectionStatus: [UInt8] = [
        0x0F,                               // Event_Code: Command Status
        0x04,                               // Parameter_Total_Length: 4
        0x00,                               // Status: pending
        0x02,                               // Num_HCI_Command_Packets: 2
        0x0D, 0x20,                         // Command_Opcode: 0x200D
    ]
}
