/// One netlink message: the `struct nlmsghdr` fields and the payload.
public struct NetlinkMessage: Hashable, Sendable {
    /// nlmsg_type: NLMSG_ERROR, NLMSG_DONE or the family id.
    public var type: UInt16
    /// nlmsg_flags.
    public var flags: UInt16
    /// nlmsg_seq.
    public var sequence: UInt32
    /// nlmsg_pid: port id of the sender.
    public var portID: UInt32
    public var payload: [UInt8]
    /// Offset of `payload`'s first byte in the buffer decoding started from.
    public var payloadOffset: Int

    /// Every message in `bytes` (one datagram from a netlink socket), each 4-byte aligned. Throws
    /// `WireError` at a message whose nlmsg_len is shorter than its header or runs past the end.
    public static func parse(_ bytes: [UInt8], origin: Int = 0) throws(WireError) -> [NetlinkMessage] {
        var reader = ByteReader(bytes, origin: origin)
        var messages: [NetlinkMessage] = []
        while !reader.isAtEnd {
            let start = reader.offset
            let length = Int(try reader.u32le("nlmsg_len"))
            guard length >= NLMSG_HDRLEN else {
                throw WireError(offset: start, reason: "nlmsg_len \(length) is shorter than the 16-byte header")
            }
            let type = try reader.u16le("nlmsg_type")
            let flags = try reader.u16le("nlmsg_flags")
            let sequence = try reader.u32le("nlmsg_seq")
            let portID = try reader.u32le("nlmsg_pid")
            let payloadOffset = reader.offset
            let payload = try reader.take(length - NLMSG_HDRLEN, "message payload")
            messages.append(NetlinkMessage(type: type, flags: flags, sequence: sequence, portID: portID,
                                           payload: payload, payloadOffset: payloadOffset))
            try reader.skip(min(netlinkAlign(length) - length, reader.remaining), "padding")
        }
        return messages
    }

    /// The generic netlink header and the attributes after it. Throws when the payload is too short
    /// or the attributes are malformed.
    public func genericNetlink() throws(WireError) -> (header: GenericNetlinkHeader, attributes: [NetlinkAttribute]) {
        var reader = ByteReader(payload, origin: payloadOffset)
        let header = GenericNetlinkHeader(command: try reader.u8("genlmsghdr.cmd"), version: try reader.u8("genlmsghdr.version"))
        try reader.skip(2, "genlmsghdr.reserved")
        let attributesOffset = reader.offset
        return (header, try NetlinkAttribute.parse(reader.rest(), origin: attributesOffset))
    }

    /// The error this NLMSG_ERROR message carries, nil for any other message type.
    public func error() throws(WireError) -> NetlinkErrorMessage? {
        guard type == NLMSG_ERROR else { return nil }
        return try NetlinkErrorMessage(self)
    }
}

/// `struct genlmsghdr`: the generic netlink command and version.
public struct GenericNetlinkHeader: Hashable, Sendable {
    public var command: UInt8
    public var version: UInt8
}

/// The payload of an NLMSG_ERROR message (`struct nlmsgerr`): the error (0 is an acknowledgement,
/// otherwise a negative errno), the request's header, and the extended-ack message when the kernel
/// sent one.
public struct NetlinkErrorMessage: Hashable, Sendable {
    /// 0 for an acknowledgement, −errno for a failure.
    public var error: Int32
    /// nlmsg_type and nlmsg_seq of the request the error answers.
    public var requestType: UInt16
    public var requestSequence: UInt32
    /// NLMSGERR_ATTR_MSG: the kernel's explanation, when extended acks are on.
    public var message: String?
    /// NLMSGERR_ATTR_OFFS: offset of the offending attribute in the request.
    public var attributeOffset: UInt32?

    init(_ message: NetlinkMessage) throws(WireError) {
        var reader = ByteReader(message.payload, origin: message.payloadOffset)
        error = Int32(bitPattern: try reader.u32le("nlmsgerr.error"))
        let requestLength = Int(try reader.u32le("nlmsgerr.msg.nlmsg_len"))
        requestType = try reader.u16le("nlmsgerr.msg.nlmsg_type")
        try reader.skip(2, "nlmsgerr.msg.nlmsg_flags")
        requestSequence = try reader.u32le("nlmsgerr.msg.nlmsg_seq")
        try reader.skip(4, "nlmsgerr.msg.nlmsg_pid")
        // Without NLM_F_CAPPED the whole request payload is echoed back after its header.
        if message.flags & NLM_F_CAPPED == 0, requestLength > NLMSG_HDRLEN {
            try reader.skip(min(netlinkAlign(requestLength - NLMSG_HDRLEN), reader.remaining), "echoed request")
        }
        guard message.flags & NLM_F_ACK_TLVS != 0 else { return }
        let attributesOffset = reader.offset
        let attributes = try NetlinkAttribute.parse(reader.rest(), origin: attributesOffset)
        self.message = attributes.first(NLMSGERR_ATTR_MSG)?.string()
        attributeOffset = try attributes.first(NLMSGERR_ATTR_OFFS)?.u32()
    }
}
