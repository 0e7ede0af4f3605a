import CNetlinkGenl
import Glibc

/// A libnl generic netlink socket resolved to nl80211 and joined to its "scan" multicast group,
/// with extended acknowledgements on. Requests are built with libnl; datagrams are read as raw
/// bytes (with `poll()` first, so a read never blocks past its timeout) and left to Scan's decoders.
final class NL80211Socket: NL80211Channel {
    private let socket: OpaquePointer
    private let family: CInt
    private let descriptor: CInt

    /// Opens and sets up the socket with a receive buffer of `receiveBufferBytes` (SO_RCVBUFFORCE
    /// when allowed, else SO_RCVBUF up to the system's limit). Throws ``NL80211Error/netlink(call:code:text:)``
    /// when a step fails (no nl80211 in the kernel: cfg80211 not loaded).
    init(receiveBufferBytes: Int) throws(NL80211Error) {
        guard let socket = nl_socket_alloc() else {
            throw NL80211Error.netlink(call: "nl_socket_alloc", code: -NLE_NOMEM, text: "out of memory")
        }
        nl_socket_disable_auto_ack(socket)
        do {
            try Self.check("genl_connect", genl_connect(socket))
            let family = genl_ctrl_resolve(socket, NL80211_GENL_NAME)
            try Self.check("genl_ctrl_resolve(nl80211)", family)
            let group = genl_ctrl_resolve_grp(socket, NL80211_GENL_NAME, NL80211_MULTICAST_GROUP_SCAN)
            try Self.check("genl_ctrl_resolve_grp(nl80211, scan)", group)
            try Self.check("nl_socket_add_membership(scan)", nl_socket_add_membership(socket, group))
            self.family = family
        } catch {
            nl_socket_free(socket)
            throw error
        }
        self.socket = socket
        descriptor = nl_socket_get_fd(socket)
        var size = CInt(clamping: receiveBufferBytes)
        if setsockopt(descriptor, SOL_SOCKET, SO_RCVBUFFORCE, &size, socklen_t(MemoryLayout<CInt>.size)) != 0 {
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<CInt>.size)) // Capped by net.core.rmem_max; the default is kept on failure.
        }
        var on: CInt = 1
        _ = setsockopt(descriptor, SOL_NETLINK, NETLINK_EXT_ACK, &on, socklen_t(MemoryLayout<CInt>.size)) // Only adds the kernel's explanations to errors.
    }

    private static func check(_ call: String, _ code: CInt) throws(NL80211Error) {
        guard code >= 0 else {
            throw NL80211Error.netlink(call: call, code: code, text: String(cString: nl_geterror(code)))
        }
    }

    func send(_ request: NL80211Request) throws -> UInt32 {
        guard let message = nlmsg_alloc() else {
            throw NL80211Error.netlink(call: "nlmsg_alloc", code: -NLE_NOMEM, text: "out of memory")
        }
        defer { nlmsg_free(message) }
        let command: nl80211_commands
        let flags: CInt
        let interfaceIndex: UInt32
        switch request {
        case .triggerScan(let index, _):
            (command, flags, interfaceIndex) = (NL80211_CMD_TRIGGER_SCAN, NLM_F_ACK, index)
        case .getScan(let index):
            (command, flags, interfaceIndex) = (NL80211_CMD_GET_SCAN, NLM_F_DUMP, index)
        }
        guard genlmsg_put(message, UInt32(NL_AUTO_PORT), UInt32(NL_AUTO_SEQ), family, 0, flags, UInt8(command.rawValue), 0) != nil else {
            throw NL80211Error.netlink(call: "genlmsg_put", code: -NLE_NOMEM, text: "message too small")
        }
        try Self.check("nla_put(NL80211_ATTR_IFINDEX)", nla_put_u32(message, CInt(NL80211_ATTR_IFINDEX.rawValue), interfaceIndex))
        if case .triggerScan(_, let settings) = request {
            if settings.flush {
                try Self.check("nla_put(NL80211_ATTR_SCAN_FLAGS)", nla_put_u32(message, CInt(NL80211_ATTR_SCAN_FLAGS.rawValue), NL80211_SCAN_FLAG_FLUSH.rawValue))
            }
            if settings.scanType == .active {
                // One empty SSID: probe for any network (the wildcard SSID). Without SSIDs the scan is passive.
                let ssids = nla_nest_start(message, CInt(NL80211_ATTR_SCAN_SSIDS.rawValue))
                try Self.check("nla_put(wildcard SSID)", nla_put(message, 1, 0, nil))
                try Self.check("nla_nest_end(NL80211_ATTR_SCAN_SSIDS)", nla_nest_end(message, ssids))
            }
        }
        try Self.check("nl_send_auto", nl_send_auto(socket, message))
        return nlmsg_hdr(message).pointee.nlmsg_seq
    }

    func receive(timeout: Duration) throws(SystemError) -> [UInt8]? {
        guard try Syscall.waitReadable(descriptor, timeout: timeout) else { return nil }
        // Peek first for the datagram's full length, so a large dump message is never cut short.
        let length = try Syscall.retryingInterrupts("recv(MSG_PEEK)") {
            recv(descriptor, nil, 0, CInt(MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT))
        }
        var buffer = [UInt8](repeating: 0, count: max(length, 1))
        let count = try Syscall.retryingInterrupts("recv") {
            buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
        }
        return Array(buffer.prefix(count))
    }

    func close() {
        nl_socket_free(socket)
    }
}
