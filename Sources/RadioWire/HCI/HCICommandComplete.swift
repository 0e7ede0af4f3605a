/// Command Complete event (Core Vol 4, Part E, §7.7.14).
public struct HCICommandComplete: Hashable, Sendable {
    /// Num_HCI_Command_Packets: commands the host may send now.
    public var numHCICommandPackets: UInt8
    /// Command_Opcode: OGF in the top 6 bits, OCF in the low 10.
    public var commandOpcode: UInt16
    /// Return_Parameters, as the command defines them.
    public var returnParameters: [UInt8]

    /// Status: the first return parameter for nearly every command; nil when there are none.
    public var status: UInt8? { returnParameters.first }

    /// Throws when `event` is not a Command Complete event or is shorter than its fixed fields.
    public init(_ event: HCIEventPacket) throws(WireError) {
        var reader = event.parameterReader
        guard event.eventCode == EVT_CMD_COMPLETE else {
            throw reader.error("event 0x\(hexByte(event.eventCode)) is not Command Complete")
        }
        numHCICommandPackets = try reader.u8("Num_HCI_Command_Packets")
        commandOpcode = try reader.u16le("Command_Opcode")
        returnParameters = reader.rest()
    }
}

/// Command Status event (Core Vol 4, Part E, §7.7.15).
public struct HCICommandStatus: Hashable, Sendable {
    /// Status: 0 when the command is pending, an error code otherwise.
    public var status: UInt8
    /// Num_HCI_Command_Packets.
    public var numHCICommandPackets: UInt8
    /// Command_Opcode.
    public var commandOpcode: UInt16

    /// Throws when `event` is not a Command Status event or its length is not 4.
    public init(_ event: HCIEventPacket) throws(WireError) {
        var reader = event.parameterReader
        guard event.eventCode == EVT_CMD_STATUS else {
            throw reader.error("event 0x\(hexByte(event.eventCode)) is not Command Status")
        }
        status = try reader.u8("Status")
        numHCICommandPackets = try reader.u8("Num_HCI_Command_Packets")
        commandOpcode = try reader.u16le("Command_Opcode")
        guard reader.isAtEnd else { throw reader.error("\(reader.remaining) bytes left after Command_Opcode") }
    }
}

/// The OpCode Group Field of a command opcode (top 6 bits).
public func hciOpcodeGroup(_ opcode: UInt16) -> UInt16 { opcode >> 10 }
/// The OpCode Command Field of a command opcode (low 10 bits).
public func hciOpcodeCommand(_ opcode: UInt16) -> UInt16 { opcode & 0x03FF }
