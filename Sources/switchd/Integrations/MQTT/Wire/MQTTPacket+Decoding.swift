import NIOCore

extension MQTTPacket {
    /// Reads one whole packet a broker sends a client (CONNACK, PUBLISH, PUBACK, SUBACK, PINGRESP)
    /// from the front of `buffer`; nil, consuming nothing, while the packet is not all there yet.
    ///
    /// - Throws: ``MQTTPacketError`` with the offset within the packet for a remaining length over
    ///   four bytes, a packet type a broker does not send a client, reserved flags that are not as
    ///   the specification fixes them, or a body shorter or longer than its fields.
    static func read(from buffer: inout ByteBuffer) throws -> MQTTPacket? {
        var peek = buffer
        guard let firstByte = peek.readInteger(as: UInt8.self) else { return nil }
        var length = 0
        var multiplier = 1
        var lengthBytes = 0
        while true {
            guard let byte = peek.readInteger(as: UInt8.self) else { return nil }
            lengthBytes += 1
            length += Int(byte & 0x7F) * multiplier
            if byte & 0x80 == 0 { break }
            guard lengthBytes < 4 else { throw MQTTPacketError(offset: 1, reason: "the remaining length runs over four bytes") }
            multiplier *= 128
        }
        guard var body = peek.readSlice(length: length) else { return nil }
        buffer = peek
        return try decode(firstByte: firstByte, body: &body, headerLength: 1 + lengthBytes)
    }

    private static func decode(firstByte: UInt8, body: inout ByteBuffer, headerLength: Int) throws -> MQTTPacket {
        var reader = BodyReader(body: body, headerLength: headerLength)
        let flags = firstByte & 0x0F
        guard let type = PacketType(rawValue: firstByte >> 4) else {
            throw MQTTPacketError(offset: 0, reason: "packet type \(firstByte >> 4) is reserved")
        }
        let packet: MQTTPacket
        switch type {
        case .connack:
            try reader.expectFlags(flags, 0)
            let acknowledge = try reader.byte("connect acknowledge flags")
            packet = .connack(sessionPresent: acknowledge & 1 == 1, returnCode: try reader.byte("connect return code"))
        case .publish:
            guard let qos = MQTTQoS(rawValue: flags >> 1 & 0x03) else {
                throw MQTTPacketError(offset: 0, reason: "QoS \(flags >> 1 & 0x03) was never subscribed for")
            }
            let topic = try reader.string("topic name")
            let packetID = qos == .atMostOnce ? nil : try reader.uint16("packet identifier")
            let message = MQTTMessage(topic: topic, payload: reader.rest(), qos: qos, retain: flags & 1 == 1)
            packet = .publish(MQTTPublish(message: message, packetID: packetID, duplicate: flags & 0x08 != 0))
        case .puback:
            try reader.expectFlags(flags, 0)
            packet = .puback(packetID: try reader.uint16("packet identifier"))
        case .suback:
            try reader.expectFlags(flags, 0)
            packet = .suback(packetID: try reader.uint16("packet identifier"), returnCodes: reader.rest())
        case .pingresp:
            try reader.expectFlags(flags, 0)
            packet = .pingresp
        default:
            throw MQTTPacketError(offset: 0, reason: "a broker does not send a client packet type \(type.rawValue) (\(type))")
        }
        try reader.expectEnd()
        return packet
    }
}

/// Reads a packet's fields in order, naming the field and its offset when one is cut short.
private struct BodyReader {
    var body: ByteBuffer
    let headerLength: Int
    private let start: Int

    init(body: ByteBuffer, headerLength: Int) {
        self.body = body
        self.headerLength = headerLength
        start = body.readerIndex
    }

    private var offset: Int { headerLength + body.readerIndex - start }

    func expectFlags(_ flags: UInt8, _ expected: UInt8) throws {
        guard flags == expected else {
            throw MQTTPacketError(offset: 0, reason: "reserved flags are \(flags), not \(expected)")
        }
    }

    mutating func byte(_ field: String) throws -> UInt8 {
        guard let value = body.readInteger(as: UInt8.self) else { throw cutShort(field) }
        return value
    }

    mutating func uint16(_ field: String) throws -> UInt16 {
        guard let value = body.readInteger(as: UInt16.self) else { throw cutShort(field) }
        return value
    }

    mutating func string(_ field: String) throws -> String {
        let at = offset
        let length = try uint16("length of \(field)")
        guard let bytes = body.readBytes(length: Int(length)) else { throw cutShort(field) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw MQTTPacketError(offset: at, reason: "\(field) is not UTF-8")
        }
        return text
    }

    mutating func rest() -> [UInt8] {
        body.readBytes(length: body.readableBytes) ?? []
    }

    func expectEnd() throws {
        guard body.readableBytes == 0 else {
            throw MQTTPacketError(offset: offset, reason: "\(body.readableBytes) bytes after the last field")
        }
    }

    private func cutShort(_ field: String) -> MQTTPacketError {
        MQTTPacketError(offset: offset, reason: "the packet ends before its \(field)")
    }
}
