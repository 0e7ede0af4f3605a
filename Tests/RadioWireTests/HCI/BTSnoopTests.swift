import Foundation
@testable import RadioWire
import Testing

@Suite("btsnoop files")
struct BTSnoopTests {
    /// A btsnoop file (datalink 1002) with a command record and the iBeacon event record.
    static let file: [UInt8] = [
        0x62, 0x74, 0x73, 0x6E, 0x6F, 0x6F, 0x70, 0x00, // identification pattern "btsnoop\0"
        0x00, 0x00, 0x00, 0x01,                         // version 1
        0x00, 0x00, 0x03, 0xEA,                         // datalink 1002 (H4)
        // record 1: HCI_Reset command, sent
        0x00, 0x00, 0x00, 0x04,                         // original length 4
        0x00, 0x00, 0x00, 0x04,                         // included length 4
        0x00, 0x00, 0x00, 0x02,                         // flags: sent, command
        0x00, 0x00, 0x00, 0x00,                         // cumulative drops
        0x00, 0xE2, 0xE7, 0xD7, 0x27, 0x4D, 0xC0, 0x00, // timestamp: 1,700,000,000 s after 1970 in µs since year 0
        0x01, 0x03, 0x0C, 0x00,                         // H4 command, opcode 0x0C03, length 0
        // record 2: the iBeacon LE Advertising Report, received
        0x00, 0x00, 0x00, 0x2D,                         // original length 45
        0x00, 0x00, 0x00, 0x2D,                         // included length 45
        0x00, 0x00, 0x00, 0x03,                         // flags: received, event
        0x00, 0x00, 0x00, 0x00,                         // cumulative drops
        0x00, 0xE2, 0xE7, 0xD7, 0x27, 0x4D, 0xC0, 0x01, // timestamp: 1 µs later
        0x04,                                           // H4 event
    ] + HCIFixtures.iBeaconReport

    @Test func readsHeaderRecordsAndEvents() throws {
        let snoop = try BTSnoopFile(bytes: Self.file)
        #expect(snoop.datalink == 1002)
        #expect(snoop.records.count == 2)
        #expect(snoop.records.first?.unixTime == 1_700_000_000)
        let events = try snoop.events()
        #expect(events.count == 1)
        #expect(events.first?.event.eventCode == 0x3E)
        #expect(events.first?.record.packetOffset == 68)
        #expect(try events.first?.event.advertisements().first?.dataOffset == 68 + 1 + 13)
    }

    @Test func theLinuxMonitorDatalinkTakesTheOpcodeFromTheFlags() throws {
        let record = BTSnoopRecord(originalLength: 6, flags: 0x0001_0003, drops: 0, timestamp: 0,
                                   packet: HCIFixtures.resetComplete, packetOffset: 0)
        #expect(try record.hciEvent(datalink: 2001)?.eventCode == 0x0E)
        #expect(try record.hciEvent(datalink: 1001)?.eventCode == 0x0E)
        var command = record
        command.flags = 0x0001_0002
        #expect(try command.hciEvent(datalink: 2001) == nil)
    }

    @Test func somethingElseIsNotBTSnoop() throws {
        let error = try #require(throws: WireError.self) { try BTSnoopFile(bytes: Array("timestamp,rssi\n".utf8)) }
        #expect(error.reason.contains("not a btsnoop file"))
        var otherLink = Self.file
        otherLink[15] = 0x01
        #expect(throws: WireError.self) { try BTSnoopFile(bytes: otherLink) }
    }

    @Test func aFileGrowingByOneByteIsAnErrorOrItsLeadingRecords() throws {
        let full = try BTSnoopFile(bytes: Self.file).records
        let outcome = checkEveryPrefix(Self.file, { bytes throws(WireError) in try BTSnoopFile(bytes: bytes).records },
                                       acceptable: { Array(full.prefix($0.count)) == $0 })
        #expect(outcome.results == 2)   // header only, and header with the first record
    }
}
