import Foundation
@testable import RadioWire
import Testing

@Suite("HCI events")
struct HCIEventTests {
    func advertisements(_ bytes: [UInt8]) throws(WireError) -> [LEAdvertisement] {
        try HCIEventPacket(bytes: bytes).advertisements()
    }

    @Test func decodesTheLegacyReportField() throws {
        let meta = try #require(try HCIEventPacket(bytes: HCIFixtures.iBeaconReport).leMetaEvent())
        #expect(meta.subeventCode == 0x02)
        let report = try #require(try HCILEAdvertisingReport(meta).reports.first)
        #expect(report.eventType == 3)
        #expect(report.addressType == 0)
        #expect(report.address.description == "11:22:33:44:55:66")
        #expect(report.data.count == 30)
        #expect(report.dataOffset == 13)
        #expect(report.rssi == -59)
    }

    /// An event read in place from the H4 packet it came in (type byte first) decodes as its
    /// copy does, and its errors name positions in the whole packet.
    @Test func anEventInsideAnH4PacketDecodesInPlaceWithPacketOffsets() throws {
        let packet: [UInt8] = [0x04] + HCIFixtures.iBeaconReport
        let inPlace = try HCIEventPacket(bytes: packet[1...])
        #expect(inPlace == (try HCIEventPacket(bytes: HCIFixtures.iBeaconReport, origin: 1)))
        #expect(try inPlace.advertisements() == (try HCIEventPacket(bytes: HCIFixtures.iBeaconReport, origin: 1).advertisements()))
        #expect(try inPlace.advertisements().first?.address.description == "11:22:33:44:55:66")

        let cut = Array(packet.dropLast())
        let error = try #require(throws: WireError.self) { try HCIEventPacket(bytes: cut[1...]) }
        #expect(error == (try #require(throws: WireError.self) { try HCIEventPacket(bytes: Array(cut.dropFirst()), origin: 1) }))
        #expect(error.offset == 3, "the first parameter byte, counting the H4 type byte")
    }

    @Test func readsEveryReportOfAnEvent() throws {
        let found = try advertisements(HCIFixtures.twoReports)
        #expect(found.count == 2)
        #expect(found.map(\.address.description) == ["c6:05:04:03:02:01", "c6:05:04:03:02:01"])
        #expect(found.map(\.rssi) == [-70, nil])
        #expect(found.map(\.data) == [[0x02, 0x01, 0x06], [0x02, 0x09, 0x41]])
        #expect(found.allSatisfy { !$0.isExtended })
    }

    @Test func decodesAnExtendedReport() throws {
        let meta = try #require(try HCIEventPacket(bytes: HCIFixtures.extendedEddystone).leMetaEvent())
        let report = try #require(try HCILEExtendedAdvertisingReport(meta).reports.first)
        #expect(report.eventType == 0x0010)
        #expect(report.dataStatus == 0)
        #expect(report.address.description == "ff:ee:dd:cc:bb:aa")
        #expect(report.primaryPHY == 1 && report.secondaryPHY == 0 && report.advertisingSID == 0xFF)
        #expect(report.rssi == -80)
        #expect(report.data.count == 28)
        let advertisement = try #require(try advertisements(HCIFixtures.extendedEddystone).first)
        #expect(advertisement.isExtended && advertisement.txPower == nil && advertisement.rssi == -80)
    }

    @Test func commandCompleteAndStatus() throws {
        let complete = try HCICommandComplete(HCIEventPacket(bytes: HCIFixtures.resetComplete))
        #expect(complete.commandOpcode == 0x0C03)
        #expect(hciOpcodeGroup(complete.commandOpcode) == 0x03 && hciOpcodeCommand(complete.commandOpcode) == 0x03)
        #expect(complete.status == 0 && complete.numHCICommandPackets == 1)
        let status = try HCICommandStatus(HCIEventPacket(bytes: HCIFixtures.createConnectionStatus))
        #expect(status.status == 0 && status.numHCICommandPackets == 2)
        #expect(hciOpcodeGroup(status.commandOpcode) == 0x08 && hciOpcodeCommand(status.commandOpcode) == 0x0D)
        #expect(try advertisements(HCIFixtures.resetComplete).isEmpty)
        #expect(throws: WireError.self) { try HCICommandStatus(HCIEventPacket(bytes: HCIFixtures.resetComplete)) }
    }

    @Test func aParameterLengthThatDisagreesWithTheBytesIsAnError() throws {
        var long = HCIFixtures.resetComplete
        long.append(0x00)
        let error = try #require(throws: WireError.self) { try HCIEventPacket(bytes: long) }
        #expect(error.offset == 2)
        #expect(error.reason.contains("Parameter_Total_Length is 4 but 5"))
    }

    @Test func aReportRunningPastItsEventIsAnErrorAtItsOffset() throws {
        var bytes = HCIFixtures.twoReports
        bytes[12] = 0x20                    // first report's Data_Length claims 32 bytes, 17 are left
        let error = try #require(throws: WireError.self) { try advertisements(bytes) }
        #expect(error.offset == 13)
        #expect(error.reason == "Data needs 32 bytes, only 17 left")
    }

    @Test func leftoverBytesAfterTheReportsAreAnError() throws {
        var bytes = HCIFixtures.twoReports
        bytes[3] = 0x01                     // Num_Reports 1: the second report is left over
        #expect(throws: WireError.self) { try advertisements(bytes) }
    }

    @Test(arguments: [HCIFixtures.iBeaconReport, HCIFixtures.twoReports, HCIFixtures.extendedEddystone,
                      HCIFixtures.resetComplete, HCIFixtures.createConnectionStatus])
    func everyPrefixIsACleanError(_ bytes: [UInt8]) throws {
        let full = try advertisements(bytes)
        let outcome = checkEveryPrefix(bytes, advertisements, acceptable: { $0 == full })
        // Parameter_Total_Length covers the whole event, so no proper prefix is a complete event.
        #expect(outcome.errors == bytes.count && outcome.results == 0)
    }
}
