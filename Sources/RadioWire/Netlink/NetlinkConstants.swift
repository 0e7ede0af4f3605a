// Numbers from the kernel's `include/uapi/linux/netlink.h` and `linux/genetlink.h`, named exactly as
// there. Scan cannot import the C headers, so they are repeated here, once. Netlink is in host byte
// order; these decoders read little-endian, the order of every machine floorscan runs on.

/// Message header size (`linux/netlink.h`).
let NLMSG_HDRLEN = 16
/// Messages and attributes are aligned to 4 bytes (`NLMSG_ALIGNTO`, `NLA_ALIGNTO`).
let NLMSG_ALIGNTO = 4
let NLA_ALIGNTO = 4
/// Attribute header size (`linux/netlink.h`).
let NLA_HDRLEN = 4
/// Attribute type flag: the payload is nested attributes.
let NLA_F_NESTED: UInt16 = 1 << 15
/// Attribute type flag: the payload is in network byte order.
let NLA_F_NET_BYTEORDER: UInt16 = 1 << 14
/// Mask leaving the attribute type without its flags.
let NLA_TYPE_MASK: UInt16 = ~(NLA_F_NESTED | NLA_F_NET_BYTEORDER)

/// Message type: an error or acknowledgement (`linux/netlink.h`).
let NLMSG_ERROR: UInt16 = 0x2
/// Message type: end of a multipart dump.
let NLMSG_DONE: UInt16 = 0x3
/// Flag on NLMSG_ERROR: the request was not copied back in full.
let NLM_F_CAPPED: UInt16 = 0x100
/// Flag on NLMSG_ERROR: extended-ack attributes follow.
let NLM_F_ACK_TLVS: UInt16 = 0x200
/// Extended-ack attribute: an error message string.
let NLMSGERR_ATTR_MSG: UInt16 = 1
/// Extended-ack attribute: offset of the offending attribute in the request.
let NLMSGERR_ATTR_OFFS: UInt16 = 2

/// Generic netlink header size (`linux/genetlink.h`).
let GENL_HDRLEN = 4

/// `NLMSG_ALIGN` / `NLA_ALIGN`: rounds `length` up to a multiple of 4.
func netlinkAlign(_ length: Int) -> Int { (length + NLA_ALIGNTO - 1) & ~(NLA_ALIGNTO - 1) }
