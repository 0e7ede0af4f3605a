import Foundation
import Harness
import RadioWire
import ScanContract
import Testing
@testable import scannerd

@Suite("scannerd decode")
struct BTSnoopDecodingTests {
    /// A btsnoop header (datalink 1002) and one record holding `packet`.
    func capture(_ packet: [UInt8]) -> [UInt8] {
        let length: [UInt8] = [0, 0, 0, UInt8(packet.count)]
        return Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x03, 0xEA]
            + length + length + [0, 0, 0, 3] + [0, 0, 0, 0] + [0x00, 0xE2, 0xE7, 0xD7, 0x27, 0x4D, 0xC0, 0x00] + packet
    }

    @Test func aBadEventIsSkippedAndCounted() throws {
        let decoding = try BTSnoopDecoding(bytes: capture([
            0x04,                           // H4 event
            0x3E, 0x04,                     // LE Meta, 4 parameter bytes
            0x02, 0x01, 0x00, 0x00,         // LE Advertising Report, 1 report, cut after Address_Type
        ]))
        #expect(decoding.events == 1)
        #expect(decoding.lines.isEmpty)
        #expect(decoding.skipped.count == 1)
        #expect(decoding.skipped.first?.offset == 47)
    }

    @Test func aLegacyReportBecomesALine() throws {
        let decoding = try BTSnoopDecoding(bytes: capture([
            0x04, 0x3E, 0x0F,               // H4 event, LE Meta, 15 parameter bytes
            0x02, 0x01,                     // LE Advertising Report, 1 report
            0x00, 0x01,                     // ADV_IND, random address
            0x06, 0x05, 0x04, 0x03, 0x02, 0xC1, // c1:02:03:04:05:06
            0x03, 0x02, 0x01, 0x06,         // 3 bytes of data: Flags
            0xC4,                           // RSSI −60 dBm
        ]))
        let line = try #require(decoding.lines.first)
        #expect(decoding.lines.count == 1 && decoding.skipped.isEmpty)
        #expect(line.address == "c1:02:03:04:05:06" && line.rssi == -60 && line.beacons == nil)
        #expect(line.time == Date(timeIntervalSince1970: 1_700_000_000))
        let json = String(decoding: try JSONCoding.encoder().encode(line), as: UTF8.self)
        #expect(json == #"{"address":"c1:02:03:04:05:06","addressType":1,"extended":false,"rssi":-60,"time":"2023-11-14T22:13:20.000Z"}"#)
    }

    @Test func aFileThatIsNotBTSnoopIsAnError() throws {
        #expect(throws: WireError.self) { try BTSnoopDecoding(bytes: Array("time,rssi\n1,-60\n".utf8)) }
    }

    @Test(.enabled(if: PublicData.has("ble-hci-captures"), Comment(rawValue: PublicData.missing("ble-hci-captures"))))
    func horizonCaptureGivesElevenIBeaconLines() throws {
        let decoding = try BTSnoopDecoding(bytes: PublicData.bytes("ble-hci-captures/horizon-74-at_btsnoop_hci.log"))
        #expect(decoding.skipped.isEmpty)
        let beacons = decoding.lines.compactMap(\.beacons).joined()
        #expect(beacons.count == 11)
        #expect(beacons.allSatisfy { $0.type == "ibeacon" && $0.uuid == "494e5445-4c4c-495f-524f-434b535f4857" && $0.minor == 62207 })
    }
}

@Suite("scannerd decode --nl80211")
struct BSSLineTests {
    @Test func aBSSBecomesALine() throws {
        let line = try BSSLine.decode(attributeStream: [
            0x18, 0x00, 0x2F, 0x00,             // nla_len 24, NL80211_ATTR_BSS (nested, no flag)
            0x0A, 0x00, 0x01, 0x00,             //   nla_len 10, NL80211_BSS_BSSID
            0x02, 0x11, 0x22, 0x33, 0x44, 0x55, //     02:11:22:33:44:55
            0x00, 0x00,                         //     padding
            0x08, 0x00, 0x07, 0x00,             //   nla_len 8, NL80211_BSS_SIGNAL_MBM
            0x9C, 0xE1, 0xFF, 0xFF,             //     −7780 mBm
        ])
        #expect(line.bssid == "02:11:22:33:44:55" && line.signal == -77.8 && line.ssid == nil && line.frequency == nil)
        let json = String(decoding: try JSONCoding.encoder().encode(line), as: UTF8.self)
        #expect(json == #"{"bssid":"02:11:22:33:44:55","signal":-77.8}"#)
    }

    @Test func noBSSIsAnError() throws {
        #expect(throws: WireError(offset: 0, reason: "no NL80211_ATTR_BSS attribute")) {
            try BSSLine.decode(attributeStream: [0x08, 0x00, 0x03, 0x00, 0x05, 0x00, 0x00, 0x00])
        }
    }

    @Test(.enabled(if: PublicData.has("nl80211-captures/e300.dat"), Comment(rawValue: PublicData.missing("nl80211-captures/e300.dat"))))
    func e300() throws {
        let line = try BSSLine.decode(attributeStream: PublicData.bytes("nl80211-captures/e300.dat"))
        #expect(line.bssid == "00:30:44:1a:f7:e5" && line.ssid == "E300-7e2-5g" && line.frequency == 5720 && line.signal == -37)
    }
}
