// btsnoop file format (RFC 1761 snoop, as BlueZ's `src/shared/btsnoop.h` and Android write it).
// Constant names are BlueZ's.

/// Datalink: HCI packets without an H4 type byte; direction and kind in the record flags.
let BTSNOOP_FORMAT_HCI: UInt32 = 1001
/// Datalink: HCI UART (H4); the first packet byte is the H4 packet type.
let BTSNOOP_FORMAT_UART: UInt32 = 1002
/// Datalink: Linux monitor; record flags hold the opcode (low 16 bits) and controller index (high 16).
let BTSNOOP_FORMAT_MONITOR: UInt32 = 2001
/// Monitor opcode of an HCI event packet.
let BTSNOOP_OPCODE_EVENT_PKT: UInt16 = 3
/// Microseconds from 0000-01-01 (btsnoop's epoch) to 1970-01-01.
let btsnoopUnixEpochMicroseconds: Int64 = 0x00DC_DDB3_0F2F_8000

/// A btsnoop capture decoded from its bytes: the datalink and every record.
public struct BTSnoopFile: Sendable {
    /// Datalink type (1001 HCI, 1002 H4, 2001 Linux monitor).
    public var datalink: UInt32
    public var records: [BTSnoopRecord]

    /// Throws `WireError` when the identification pattern, version or datalink is not btsnoop's,
    /// or a record runs past the end of the bytes.
    public init(bytes: [UInt8]) throws(WireError) {
        var reader = ByteReader(bytes)
        guard try reader.take(8, "identification pattern") == Array("btsnoop\0".utf8) else {
            throw WireError(offset: 0, reason: "not a btsnoop file (no \"btsnoop\" identification pattern)")
        }
        let version = try reader.u32be("version")
        guard version == 1 else { throw WireError(offset: 8, reason: "btsnoop version \(version), only 1 is known") }
        datalink = try reader.u32be("datalink")
        guard [BTSNOOP_FORMAT_HCI, BTSNOOP_FORMAT_UART, BTSNOOP_FORMAT_MONITOR].contains(datalink) else {
            throw WireError(offset: 12, reason: "btsnoop datalink \(datalink) is not HCI (1001), H4 (1002) or Linux monitor (2001)")
        }
        records = []
        while !reader.isAtEnd {
            records.append(try BTSnoopRecord(&reader))
        }
    }

    /// The HCI event packets among the records, with their records, in file order. Records that
    /// are not events are left out; an event that does not decode throws.
    public func events() throws(WireError) -> [(record: BTSnoopRecord, event: HCIEventPacket)] {
        var events: [(record: BTSnoopRecord, event: HCIEventPacket)] = []
        for record in records {
            if let event = try record.hciEvent(datalink: datalink) { events.append((record, event)) }
        }
        return events
    }
}

/// One btsnoop record: its header fields and the captured packet bytes.
public struct BTSnoopRecord: Hashable, Sendable {
    /// Original Length: the packet's length on the wire.
    public var originalLength: UInt32
    /// Packet Flags: direction and kind (1001/1002) or opcode and controller index (2001).
    public var flags: UInt32
    /// Cumulative Drops.
    public var drops: UInt32
    /// Timestamp: microseconds since 0000-01-01 00:00 UTC.
    public var timestamp: Int64
    /// The captured bytes (Included Length of them).
    public var packet: [UInt8]
    /// Offset of `packet`'s first byte in the file.
    public var packetOffset: Int

    /// Seconds since 1970-01-01 UTC.
    public var unixTime: Double { Double(timestamp - btsnoopUnixEpochMicroseconds) / 1_000_000 }

    /// The HCI event in this record, or nil when it holds another kind of packet. Throws when the
    /// record says it is an event but the bytes do not decode as one.
    public func hciEvent(datalink: UInt32) throws(WireError) -> HCIEventPacket? {
        switch datalink {
        case BTSNOOP_FORMAT_UART:
            guard packet.first == HCI_EVENT_PKT else { return nil }
            return try HCIEventPacket(bytes: Array(packet.dropFirst()), origin: packetOffset + 1)
        case BTSNOOP_FORMAT_HCI:
            // Flags bit 0: received; bit 1: command or event. Received and set means an event.
            guard flags & 0x3 == 0x3 else { return nil }
            return try HCIEventPacket(bytes: packet, origin: packetOffset)
        case BTSNOOP_FORMAT_MONITOR:
            guard UInt16(truncatingIfNeeded: flags) == BTSNOOP_OPCODE_EVENT_PKT else { return nil }
            return try HCIEventPacket(bytes: packet, origin: packetOffset)
        default:
            return nil
        }
    }
}

extension BTSnoopRecord {
    /// Reads one record header and its packet bytes.
    init(_ reader: inout ByteReader) throws(WireError) {
        originalLength = try reader.u32be("Original Length")
        let included = try reader.u32be("Included Length")
        flags = try reader.u32be("Packet Flags")
        drops = try reader.u32be("Cumulative Drops")
        timestamp = Int64(bitPattern: try reader.u64be("Timestamp"))
        packetOffset = reader.offset
        packet = try reader.take(Int(included), "Packet Data")
    }
}
