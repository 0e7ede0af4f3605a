/// An Eddystone-TLM frame (Google's Eddystone specification, "Eddystone-TLM"): service data
/// 0xFEAA, frame type 0x20, then a version byte. Version 0x00 is plain telemetry: battery voltage
/// (u16 BE, mV; 0 when the beacon does not measure it), beacon temperature (signed 8.8 fixed
/// point BE, °C; 0x8000 when it does not), advertising PDUs sent since power-up (u32 BE) and time
/// since power-up (u32 BE, 0.1 s). Version 0x01 is encrypted telemetry (12 bytes of EAX ciphertext,
/// a 2-byte salt and a 2-byte integrity check): recognised, and left alone.
public enum EddystoneTLM: Hashable, Sendable {
    case plain(Telemetry)
    /// Encrypted (version 0x01): only the beacon's owner, who holds its key, can read it.
    case encrypted

    /// What a plain TLM frame says.
    public struct Telemetry: Hashable, Sendable {
        /// Battery voltage, mV; nil when the beacon reports 0 (not measured).
        public var batteryMillivolts: Int?
        /// Temperature, °C in steps of 1/256; nil when the beacon reports 0x8000 (not measured).
        public var temperature: Double?
        /// Advertising PDUs sent since power-up or reboot.
        public var advertisementCount: UInt32
        /// Time since power-up or reboot, in seconds (sent in tenths).
        public var uptime: Double

        public init(batteryMillivolts: Int?, temperature: Double?, advertisementCount: UInt32, uptime: Double) {
            self.batteryMillivolts = batteryMillivolts
            self.temperature = temperature
            self.advertisementCount = advertisementCount
            self.uptime = uptime
        }
    }

    /// Nil when `data` is not an Eddystone-TLM frame; throws when it is one of a known version
    /// but of another length, or of a version the specification does not define.
    public init?(_ data: ServiceData16) throws(WireError) {
        var reader = ByteReader(data.data, origin: data.dataOffset)
        guard data.uuid == eddystoneServiceUUID, !data.data.isEmpty, try reader.u8("frame type") == eddystoneTLMFrameType else { return nil }
        let version = try reader.u8("TLM version")
        switch version {
        case eddystoneTLMPlainVersion:
            guard reader.remaining == 12 else { throw reader.error("Eddystone-TLM version 0 has 12 bytes after the version, got \(reader.remaining)") }
            let battery = try reader.u16be("battery voltage")
            let temperature = Int16(bitPattern: try reader.u16be("beacon temperature"))
            let count = try reader.u32be("advertising PDU count")
            let tenths = try reader.u32be("time since power-on")
            self = .plain(Telemetry(
                batteryMillivolts: battery == 0 ? nil : Int(battery),
                temperature: temperature == Int16.min ? nil : Double(temperature) / 256,
                advertisementCount: count, uptime: Double(tenths) / 10
            ))
        case eddystoneTLMEncryptedVersion:
            guard reader.remaining == 16 else { throw reader.error("Eddystone-TLM version 1 has 16 bytes after the version, got \(reader.remaining)") }
            self = .encrypted
        default:
            throw reader.error("Eddystone-TLM version \(version) is not 0 (plain) or 1 (encrypted)")
        }
    }

    /// The first TLM frame among `structures`, found by AD type and service UUID. Throws when a
    /// structure claims to be TLM but breaks the format.
    public static func first(in structures: [ADStructure]) throws(WireError) -> EddystoneTLM? {
        for structure in structures {
            if let service = try ServiceData16(structure), let frame = try EddystoneTLM(service) { return frame }
        }
        return nil
    }
}
