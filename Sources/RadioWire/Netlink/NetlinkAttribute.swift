/// One netlink attribute (`struct nlattr`): u16 length (header included), u16 type, payload, padding
/// to 4 bytes.
public struct NetlinkAttribute: Hashable, Sendable {
    /// The type without the NLA_F_NESTED and NLA_F_NET_BYTEORDER flags.
    public var type: UInt16
    /// True when the kernel set NLA_F_NESTED (older attributes nest without it).
    public var isNestedFlagSet: Bool
    public var payload: [UInt8]
    /// Offset of `payload`'s first byte in the buffer decoding started from.
    public var payloadOffset: Int

    public init(type: UInt16, isNestedFlagSet: Bool = false, payload: [UInt8], payloadOffset: Int = 0) {
        self.type = type
        self.isNestedFlagSet = isNestedFlagSet
        self.payload = payload
        self.payloadOffset = payloadOffset
    }

    /// Every attribute in `bytes`, in order. A length shorter than the header or running past the
    /// end throws `WireError` at that attribute; the padding after the last one may be missing.
    public static func parse(_ bytes: [UInt8], origin: Int = 0) throws(WireError) -> [NetlinkAttribute] {
        var reader = ByteReader(bytes, origin: origin)
        var attributes: [NetlinkAttribute] = []
        while !reader.isAtEnd {
            let start = reader.offset
            let length = Int(try reader.u16le("nla_len"))
            let type = try reader.u16le("nla_type")
            guard length >= NLA_HDRLEN else {
                throw WireError(offset: start, reason: "nla_len \(length) is shorter than the 4-byte header")
            }
            let payloadOffset = reader.offset
            let payload = try reader.take(length - NLA_HDRLEN, "attribute \(type & NLA_TYPE_MASK) payload")
            attributes.append(NetlinkAttribute(type: type & NLA_TYPE_MASK, isNestedFlagSet: type & NLA_F_NESTED != 0,
                                               payload: payload, payloadOffset: payloadOffset))
            try reader.skip(min(netlinkAlign(length) - length, reader.remaining), "padding")
        }
        return attributes
    }

    /// The payload read as nested attributes.
    public func nested() throws(WireError) -> [NetlinkAttribute] {
        try Self.parse(payload, origin: payloadOffset)
    }

    public func u8() throws(WireError) -> UInt8 {
        var reader = try exact(1)
        return try reader.u8("attribute \(type)")
    }

    public func u16() throws(WireError) -> UInt16 {
        var reader = try exact(2)
        return try reader.u16le("attribute \(type)")
    }

    public func u32() throws(WireError) -> UInt32 {
        var reader = try exact(4)
        return try reader.u32le("attribute \(type)")
    }

    public func u64() throws(WireError) -> UInt64 {
        var reader = try exact(8)
        return try reader.u64le("attribute \(type)")
    }

    public func i32() throws(WireError) -> Int32 { Int32(bitPattern: try u32()) }

    /// A NUL-terminated string payload (the terminator and anything after it dropped).
    public func string() -> String {
        String(decoding: payload.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// A reader over the payload after checking it is exactly `width` bytes.
    private func exact(_ width: Int) throws(WireError) -> ByteReader {
        guard payload.count == width else {
            throw WireError(offset: payloadOffset, reason: "attribute \(type) has \(payload.count) payload bytes, expected \(width)")
        }
        return ByteReader(payload, origin: payloadOffset)
    }
}

extension Array where Element == NetlinkAttribute {
    /// The first attribute of `type`, nil when there is none.
    public func first(_ type: UInt16) -> NetlinkAttribute? { first { $0.type == type } }
}
