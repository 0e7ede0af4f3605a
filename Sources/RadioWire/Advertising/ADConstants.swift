// AD types named as BlueZ's `src/eir.h` names them (values: Bluetooth Assigned Numbers, §2.3),
// and the beacon identifiers of the vendors' specifications.

/// Complete local name (`src/eir.h`).
let EIR_NAME_COMPLETE: UInt8 = 0x09
/// Service data, 16-bit UUID (`src/eir.h`).
let EIR_SERVICE_DATA: UInt8 = 0x16
/// Manufacturer specific data (`src/eir.h`).
let EIR_MANUFACTURER_DATA: UInt8 = 0xFF

/// Apple's company identifier (Bluetooth Assigned Numbers).
let appleCompanyID: UInt16 = 0x004C
/// iBeacon: type and length bytes after Apple's company identifier (Apple, "Proximity Beacon Specification").
let iBeaconType: UInt8 = 0x02
let iBeaconLength: UInt8 = 0x15
/// Eddystone's 16-bit service UUID and UID frame type (Google, Eddystone protocol specification).
let eddystoneServiceUUID: UInt16 = 0xFEAA
let eddystoneUIDFrameType: UInt8 = 0x00
/// Eddystone-TLM's frame type and its two versions: plain and encrypted telemetry.
let eddystoneTLMFrameType: UInt8 = 0x20
let eddystoneTLMPlainVersion: UInt8 = 0x00
let eddystoneTLMEncryptedVersion: UInt8 = 0x01
/// AltBeacon's beacon code (AltBeacon specification v1.0), sent big-endian: BE AC.
let altBeaconCode: UInt16 = 0xBEAC
