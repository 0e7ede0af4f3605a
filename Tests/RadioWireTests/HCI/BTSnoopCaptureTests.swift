import Foundation
import Harness
@testable import RadioWire
import Testing

/// The real captures in shared/data/ble-hci-captures (see its README for what they hold);
/// skipped when they are not on this machine.
@Suite("btsnoop captures", .enabled(if: PublicData.has("ble-hci-captures"), Comment(rawValue: PublicData.missing("ble-hci-captures"))))
struct BTSnoopCaptureTests {
    struct Decoded {
        var events: [(record: BTSnoopRecord, event: HCIEventPacket)]
        var legacyReportEvents = 0
        var extendedReportEvents = 0
        var commandCompletes = 0
        var advertisements: [LEAdvertisement] = []
        var iBeacons: [(advertisement: LEAdvertisement, beacon: IBeacon)] = []
    }

    func decode(_ name: String) throws -> (BTSnoopFile, Decoded) {
        let bytes = try PublicData.bytes("ble-hci-captures/" + name)
        let snoop = try BTSnoopFile(bytes: bytes)
        var decoded = Decoded(events: try snoop.events())
        for (_, event) in decoded.events {
            if event.eventCode == EVT_CMD_COMPLETE {
                _ = try HCICommandComplete(event)
                decoded.commandCompletes += 1
            }
            switch try event.leMetaEvent()?.subeventCode {
            case EVT_LE_ADVERTISING_REPORT: decoded.legacyReportEvents += 1
            case BT_HCI_EVT_LE_EXT_ADV_REPORT: decoded.extendedReportEvents += 1
            default: break
            }
            for advertisement in try event.advertisements() {
                decoded.advertisements.append(advertisement)
                for frame in try BeaconFrame.all(in: ADStructure.parse(advertisement.data, origin: advertisement.dataOffset)) {
                    if case .iBeacon(let beacon) = frame { decoded.iBeacons.append((advertisement, beacon)) }
                }
            }
        }
        return (snoop, decoded)
    }

    @Test func horizonHas412ReportEventsAnd11IBeacons() throws {
        let (snoop, decoded) = try decode("horizon-74-at_btsnoop_hci.log")
        #expect(snoop.datalink == 1002)
        #expect(snoop.records.count == 2572)
        #expect(decoded.legacyReportEvents == 412)
        #expect(decoded.extendedReportEvents == 0)
        #expect(decoded.iBeacons.count == 11)
        let uuid = try #require(UUID(uuid: (0x49, 0x4E, 0x54, 0x45, 0x4C, 0x4C, 0x49, 0x5F, 0x52, 0x4F, 0x43, 0x4B, 0x53, 0x5F, 0x48, 0x57)) as UUID?)
        let govee = Set(["a4:c1:38:bf:6f:ab", "a4:c1:38:83:ef:4c", "a4:c1:38:8b:73:f4", "a4:c1:38:70:53:99"])
        for (advertisement, beacon) in decoded.iBeacons {
            #expect(beacon.uuid == uuid)
            #expect([20594, 20597].contains(beacon.major))
            #expect(beacon.minor == 62207)
            #expect(beacon.measuredPower == -62)
            #expect(govee.contains(advertisement.address.description))
            let rssi = try #require(advertisement.rssi)
            #expect((-94)...(-49) ~= rssi)
        }
        #expect(Set(decoded.iBeacons.map(\.advertisement.address.description)) == govee)
        #expect(Set(decoded.advertisements.map(\.address)).count == 36)
    }

    @Test func androidHas12ExtendedReportsAndNoIBeacon() throws {
        let (snoop, decoded) = try decode("btsnoop-rs_btsnoop_hci_android.log")
        #expect(snoop.records.count == 222)
        #expect(decoded.commandCompletes == 105)
        #expect(decoded.extendedReportEvents == 12)
        #expect(decoded.legacyReportEvents == 0)
        #expect(decoded.iBeacons.isEmpty)
        // The iBeacon pattern is in the file (inside a vendor command), so the zero above means something.
        let pattern: [UInt8] = [0x4C, 0x00, 0x02, 0x15]
        let packets = snoop.records.map(\.packet)
        #expect(packets.filter { packet in packet.indices.contains { packet[$0...].starts(with: pattern) } }.count == 1)
    }

    @Test func btmonUsesTheMonitorDatalinkAndHasNoAdvertisements() throws {
        let (snoop, decoded) = try decode("btsnoop-rs_btsnoop_btmon.log")
        #expect(snoop.datalink == 2001)
        #expect(snoop.records.count == 554)
        #expect(decoded.events.count == 56)
        #expect(decoded.advertisements.isEmpty)
        #expect(try decoded.events.compactMap { try $0.event.leMetaEvent()?.subeventCode } == [0x12])
    }

    @Test func everyPrefixOfRealReportEventsIsACleanError() throws {
        for name in ["horizon-74-at_btsnoop_hci.log", "btsnoop-rs_btsnoop_hci_android.log"] {
            let (_, decoded) = try decode(name)
            let reports = decoded.events.filter { (try? $0.event.advertisements().isEmpty) == false }.prefix(5)
            #expect(reports.count == 5)
            for (_, event) in reports {
                let bytes = [event.eventCode, UInt8(event.parameters.count)] + event.parameters
                let full = try HCIEventPacket(bytes: bytes).advertisements()
                let outcome = checkEveryPrefix(bytes, { prefix throws(WireError) in try HCIEventPacket(bytes: prefix).advertisements() },
                                               acceptable: { $0 == full })
                #expect(outcome.errors == bytes.count)
            }
        }
    }
}
