import NIOCore

extension MQTTPacket {
    /// Control packet types (section 2.2.1, table 2.1).
    enum PacketType: UInt8 {
        case connect = 1, connack, publish, puback, pubrec, pubrel, pubcomp, subscribe, suback
        case unsubscribe, unsuback, pingreq, pingresp, disconnect
    }

    /// Appends the packet's bytes: fixed header, variable header and payload.
    ///
    /// - Throws: ``MQTTPacketError`` when a string is longer than 65,535 bytes or the packet longer
    ///   than the 268,435,455 bytes the remaining length can say.
    func write(to buffer: inout ByteBuffer) throws {
        var body = ByteBuffer()
        let firstByte: UInt8
        switch self {
        case .connect(let connect):
            firstByte = PacketType.connect.rawValue << 4
            try connect.writeBody(to: &body)
        case .connack(let sessionPresent, let returnCode):
            firstByte = PacketType.connack.rawValue << 4
            body.writeInteger(UInt8(sessionPresent ? 1 : 0))
            body.writeInteger(returnCode)
        case .publish(let publish):
            let message = publish.message
            firstByte = PacketType.publish.rawValue << 4 | (publish.duplicate ? 0x08 : 0) | message.qos.rawValue << 1 | (message.retain ? 1 : 0)
            try body.writeMQTTString(message.topic)
            if message.qos != .atMostOnce { body.writeInteger(publish.packetID ?? 0) }
            body.writeBytes(message.payload)
        case .puback(let packetID):
            firstByte = PacketType.puback.rawValue << 4
            body.writeInteger(packetID)
        case .subscribe(let packetID, let filters):
            // Bits 3–0 of SUBSCRIBE's fixed header are reserved and must be 0010 (section 3.8.1).
            firstByte = PacketType.subscribe.rawValue << 4 | 0x02
            body.writeInteger(packetID)
            for filter in filters {
                try body.writeMQTTString(filter.topic)
                body.writeInteger(filter.qos.rawValue)
            }
        case .suback(let packetID, let returnCodes):
            firstByte = PacketType.suback.rawValue << 4
            body.writeInteger(packetID)
            body.writeBytes(returnCodes)
        case .pingreq: firstByte = PacketType.pingreq.rawValue << 4
        case .pingresp: firstByte = PacketType.pingresp.rawValue << 4
        case .disconnect: firstByte = PacketType.disconnect.rawValue << 4
        }
        buffer.writeInteger(firstByte)
        try buffer.writeRemainingLength(body.readableBytes)
        buffer.writeBuffer(&body)
    }
}

extension MQTTConnect {
    /// CONNECT flags (section 3.1.2.3).
    private enum Flag {
        static let username: UInt8 = 0x80
        static let password: UInt8 = 0x40
        static let willRetain: UInt8 = 0x20
        static let will: UInt8 = 0x04
        static let cleanSession: UInt8 = 0x02
    }

    /// Protocol level 4 is MQTT 3.1.1 (section 3.1.2.2).
    static let protocolLevel: UInt8 = 4

    func writeBody(to body: inout ByteBuffer) throws {
        try body.writeMQTTString("MQTT")
        body.writeInteger(Self.protocolLevel)
        var flags: UInt8 = cleanSession ? Flag.cleanSession : 0
        if let will {
            flags |= Flag.will | will.qos.rawValue << 3 | (will.retain ? Flag.willRetain : 0)
        }
        if username != nil { flags |= Flag.username }
        if password != nil { flags |= Flag.password }
        body.writeInteger(flags)
        body.writeInteger(keepAlive)
        try body.writeMQTTString(clientID)
        if let will {
            try body.writeMQTTString(will.topic)
            try body.writeMQTTBytes(will.payload)
        }
        if let username { try body.writeMQTTString(username) }
        if let password { try body.writeMQTTBytes(Array(password.utf8)) }
    }
}

extension ByteBuffer {
    /// The largest remaining length four bytes can encode (section 2.2.3).
    static let maxRemainingLength = 268_435_455

    mutating func writeRemainingLength(_ length: Int) throws {
        guard length <= Self.maxRemainingLength else {
            throw MQTTPacketError(offset: 1, reason: "a packet of \(length) bytes is longer than MQTT allows")
        }
        var rest = length
        repeat {
            var byte = UInt8(rest % 128)
            rest /= 128
            if rest > 0 { byte |= 0x80 }
            writeInteger(byte)
        } while rest > 0
    }

    /// A UTF-8 string with its two-byte length (section 1.5.3).
    mutating func writeMQTTString(_ text: String) throws {
        try writeMQTTBytes(Array(text.utf8))
    }

    mutating func writeMQTTBytes(_ bytes: [UInt8]) throws {
        guard bytes.count <= Int(UInt16.max) else {
            throw MQTTPacketError(offset: writerIndex, reason: "a string of \(bytes.count) bytes is longer than 65535")
        }
        writeInteger(UInt16(bytes.count))
        writeBytes(bytes)
    }
}
