// Numbers from BlueZ's headers, named exactly as BlueZ names them: `lib/hci.h` (packet types,
// event codes, LE meta subevents) and `monitor/bt.h` (the extended advertising report, which
// `lib/hci.h` does not define). Scan cannot import the C headers, so they are repeated here, once.
// Values are those of the Bluetooth Core Specification, Vol 4, Part E, §5.4 and §7.7.

/// H4 (UART) packet type: HCI command (`lib/hci.h`).
let HCI_COMMAND_PKT: UInt8 = 0x01
/// H4 packet type: ACL data (`lib/hci.h`).
let HCI_ACLDATA_PKT: UInt8 = 0x02
/// H4 packet type: SCO data (`lib/hci.h`).
let HCI_SCODATA_PKT: UInt8 = 0x03
/// H4 packet type: HCI event (`lib/hci.h`).
let HCI_EVENT_PKT: UInt8 = 0x04

/// Event header: event code and parameter total length (`lib/hci.h`).
let HCI_EVENT_HDR_SIZE = 2

/// Command Complete event (`lib/hci.h`).
let EVT_CMD_COMPLETE: UInt8 = 0x0E
/// Command Status event (`lib/hci.h`).
let EVT_CMD_STATUS: UInt8 = 0x0F
/// LE Meta event (`lib/hci.h`).
let EVT_LE_META_EVENT: UInt8 = 0x3E

/// LE Meta subevent: LE Advertising Report (`lib/hci.h`).
let EVT_LE_ADVERTISING_REPORT: UInt8 = 0x02
/// LE Meta subevent: LE Extended Advertising Report (`monitor/bt.h`).
let BT_HCI_EVT_LE_EXT_ADV_REPORT: UInt8 = 0x0D

/// RSSI value meaning "not available" in advertising reports (Core Vol 4, Part E, §7.7.65.2, §7.7.65.13).
let HCI_RSSI_NOT_AVAILABLE: Int8 = 127
/// TX power value meaning "not available" in extended advertising reports (§7.7.65.13).
let HCI_TX_POWER_NOT_AVAILABLE: Int8 = 127
