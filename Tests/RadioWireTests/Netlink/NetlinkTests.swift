import Harness
@testable import RadioWire
import Testing

@Suite("Netlink and nl80211")
struct NetlinkTests {
    /// A generic netlink NL80211_CMD_NEW_SCAN_RESULTS message with one small BSS (little-endian host).
    static let scanResult: [UInt8] = [
        0x50, 0x00, 0x00, 0x00,             // nlmsg_len 80
        0x1C, 0x00,                         // nlmsg_type 28 (the nl80211 family id on this host)
        0x02, 0x00,                         // nlmsg_flags NLM_F_MULTI
        0x07, 0x00, 0x00, 0x00,             // nlmsg_seq 7
        0x00, 0x00, 0x00, 0x00,             // nlmsg_pid 0 (kernel)
        0x22, 0x01, 0x00, 0x00,             // genlmsghdr: cmd 34 NEW_SCAN_RESULTS, version 1, reserved
        0x08, 0x00, 0x03, 0x00,             // nla_len 8, NL80211_ATTR_IFINDEX
        0x05, 0x00, 0x00, 0x00,             //   ifindex 5
        0x34, 0x00, 0x2F, 0x80,             // nla_len 52, NL80211_ATTR_BSS | NLA_F_NESTED
        0x0A, 0x00, 0x01, 0x00,             //   nla_len 10, NL80211_BSS_BSSID
        0x02, 0x11, 0x22, 0x33, 0x44, 0x55, //     02:11:22:33:44:55
        0x00, 0x00,                         //     padding to 4
        0x08, 0x00, 0x02, 0x00,             //   nla_len 8, NL80211_BSS_FREQUENCY
        0x6C, 0x09, 0x00, 0x00,             //     2412 MHz
        0x08, 0x00, 0x07, 0x00,             //   nla_len 8, NL80211_BSS_SIGNAL_MBM
        0x28, 0xE6, 0xFF, 0xFF,             //     −6616 mBm
        0x09, 0x00, 0x06, 0x00,             //   nla_len 9, NL80211_BSS_INFORMATION_ELEMENTS
        0x00, 0x03, 0x6C, 0x61, 0x62,       //     SSID element, length 3, "lab"
        0x00, 0x00, 0x00,                   //     padding to 4
        0x05, 0x00, 0x08, 0x00,             //   nla_len 5, NL80211_BSS_SIGNAL_UNSPEC
        0x3C,                               //     60
        0x00, 0x00, 0x00,                   //     padding to 4
    ]

    /// NLMSG_ERROR with extended ack: EINVAL, request capped, message text.
    static let errorWithAck: [UInt8] = [
        0x30, 0x00, 0x00, 0x00,             // nlmsg_len 48
        0x02, 0x00,                         // nlmsg_type NLMSG_ERROR
        0x00, 0x03,                         // nlmsg_flags NLM_F_CAPPED | NLM_F_ACK_TLVS
        0x09, 0x00, 0x00, 0x00,             // nlmsg_seq 9
        0x00, 0x00, 0x00, 0x00,             // nlmsg_pid 0
        0xEA, 0xFF, 0xFF, 0xFF,             // error −22 (EINVAL)
        0x20, 0x00, 0x00, 0x00,             // request nlmsg_len 32
        0x1C, 0x00,                         // request nlmsg_type 28
        0x05, 0x00,                         // request nlmsg_flags
        0x09, 0x00, 0x00, 0x00,             // request nlmsg_seq 9
        0x00, 0x00, 0x00, 0x00,             // request nlmsg_pid
        0x0B, 0x00, 0x01, 0x00,             // nla_len 11, NLMSGERR_ATTR_MSG
        0x62, 0x61, 0x64, 0x20, 0x69, 0x66, 0x00, // "bad if\0"
        0x00,                               // padding to 4
    ]

    @Test func decodesAScanResultMessage() throws {
        let messages = try NetlinkMessage.parse(Self.scanResult)
        let message = try #require(messages.first)
        #expect(messages.count == 1 && message.type == 28 && message.sequence == 7)
        let (header, attributes) = try message.genericNetlink()
        #expect(header.command == 34 && header.version == 1)
        #expect(try attributes.first(NL80211_ATTR_IFINDEX)?.u32() == 5)
        #expect(attributes.first(NL80211_ATTR_BSS)?.isNestedFlagSet == true)
        let bss = try #require(try NL80211BSS.fromScanResult(attributes))
        #expect(bss.bssid.description == "02:11:22:33:44:55")
        #expect(bss.frequency == 2412)
        #expect(bss.signalDBm == -66.16)
        #expect(bss.signalUnspecified == 60)
        #expect(bss.ssid == "lab")
    }

    @Test func decodesAnErrorWithExtendedAck() throws {
        let error = try #require(try NetlinkMessage.parse(Self.errorWithAck).first?.error())
        #expect(error.error == -22)
        #expect(error.requestType == 28 && error.requestSequence == 9)
        #expect(error.message == "bad if")
        #expect(try NetlinkMessage.parse(Self.scanResult).first?.error() == nil)
    }

    @Test func anAttributeRunningPastItsParentIsAnErrorAtItsOffset() throws {
        var bytes = Self.scanResult
        bytes[32] = 0x40                    // the BSSID attribute claims 64 bytes inside a 52-byte BSS
        let message = try #require(try NetlinkMessage.parse(bytes).first)
        let attributes = try message.genericNetlink().attributes
        let error = try #require(throws: WireError.self) { try NL80211BSS.fromScanResult(attributes) }
        #expect(error.offset == 36)
    }

    @Test func aBSSIDThatIsNotSixOctetsIsAnErrorAtItsPayload() throws {
        let attributes = [NetlinkAttribute(type: 1, payload: [0x02, 0x11, 0x22, 0x33, 0x44], payloadOffset: 8)]
        #expect(throws: WireError(offset: 8, reason: "NL80211_BSS_BSSID must be 6 octets, got 5")) { try NL80211BSS(attributes) }
    }

    @Test func anInformationElementOverrunIsAnError() throws {
        let error = try #require(throws: WireError.self) { try InformationElement.parse([0x00, 0x02, 0x41, 0x42, 0x01, 0x08, 0x82], origin: 10) }
        #expect(error.offset == 14)
    }

    @Test(arguments: [scanResult, errorWithAck])
    func everyPrefixIsACleanErrorOrFewerMessages(_ bytes: [UInt8]) throws {
        let outcome = checkEveryPrefix(bytes, { prefix throws(WireError) in try NetlinkMessage.parse(prefix) },
                                       acceptable: { $0.isEmpty })
        #expect(outcome.results == 1)   // only the empty prefix decodes (to no message)
    }

    @Test(.enabled(if: PublicData.has("nl80211-captures/e300.dat"), Comment(rawValue: PublicData.missing("nl80211-captures/e300.dat"))))
    func e300ScanResult() throws {
        let bytes = try PublicData.bytes("nl80211-captures/e300.dat")
        let attributes = try NetlinkAttribute.parse(bytes)
        #expect(attributes.map(\.type) == [46, 3, 153, 47])
        #expect(try attributes.first(NL80211_ATTR_GENERATION)?.u32() == 780)
        #expect(try attributes.first(NL80211_ATTR_WDEV)?.u64() == 0x1_0000_0001)
        let bss = try #require(try NL80211BSS.fromScanResult(attributes))
        #expect(bss.bssid.description == "00:30:44:1a:f7:e5")
        #expect(bss.frequency == 5720)
        #expect(bss.signalDBm == -37)
        #expect(bss.signalUnspecified == nil)
        #expect(bss.seenMillisecondsAgo == 1_186_403)
        #expect(bss.status == 1)
        #expect(bss.lastSeenBoottime != nil)
        #expect(bss.ssid == "E300-7e2-5g")
        #expect(bss.informationElements.reduce(0) { $0 + 2 + $1.data.count } == 379)
        // Every prefix either fails cleanly or decodes to the leading attributes.
        let outcome = checkEveryPrefix(bytes, { prefix throws(WireError) in try NetlinkAttribute.parse(prefix) },
                                       acceptable: { Array(attributes.prefix($0.count)) == $0 })
        #expect(outcome.results >= 4)
    }
}
