import Foundation
@testable import RadioWire
import Testing

@Suite("Advertising data and beacons")
struct AdvertisingDataTests {
    /// The beacon frames in an HCI event's advertisements.
    func beacons(_ event: [UInt8]) throws(WireError) -> [BeaconFrame] {
        var frames: [BeaconFrame] = []
        for advertisement in try HCIEventPacket(bytes: event).advertisements() {
            frames += try BeaconFrame.all(in: ADStructure.parse(advertisement.data, origin: advertisement.dataOffset))
        }
        return frames
    }

    @Test func splitsStructuresAndStopsAtAZeroLength() throws {
        let structures = try ADStructure.parse([
            0x02, 0x01, 0x06,               // Flags
            0x03, 0x09, 0x41, 0x42,         // Complete Local Name "AB"
            0x00, 0x00, 0xFF, 0xFF,         // zero length: the rest is padding, even if it is not zero
        ])
        #expect(structures.map(\.type) == [0x01, 0x09])
        #expect(structures.map(\.data) == [[0x06], [0x41, 0x42]])
        #expect(structures.map(\.dataOffset) == [2, 5])
    }

    @Test func anOverrunIsAnErrorAtItsLengthOctet() throws {
        let error = try #require(throws: WireError.self) {
            try ADStructure.parse([0x02, 0x01, 0x06, 0x05, 0xFF, 0x4C, 0x00], origin: 40)
        }
        #expect(error.offset == 43)
        #expect(error.reason.contains("length 5"))
    }

    @Test func everyPrefixOfAdvertisingDataIsAnErrorOrItsLeadingStructures() throws {
        let data = Array(HCIFixtures.iBeaconReport[13..<43])
        let full = try ADStructure.parse(data)
        let outcome = checkEveryPrefix(data, { bytes throws(WireError) in try ADStructure.parse(bytes) },
                                       acceptable: { Array(full.prefix($0.count)) == $0 })
        #expect(outcome.results == 2)   // empty, and just the Flags structure
    }

    @Test func decodesAnIBeacon() throws {
        let frames = try beacons(HCIFixtures.iBeaconReport)
        guard case .iBeacon(let beacon)? = frames.first, frames.count == 1 else {
            Issue.record("expected one iBeacon, got \(frames)")
            return
        }
        #expect(beacon.uuid == (try #require(UUID(uuidString: "01020304-0506-0708-090A-0B0C0D0E0F10"))) && beacon.major == 7 && beacon.minor == 256)
        #expect(beacon.measuredPower == -59)
    }

    @Test func appleDataOfAnotherTypeIsNotABeacon() throws {
        var bytes = HCIFixtures.iBeaconReport
        bytes[20] = 0x10                    // Apple type 0x10 (not iBeacon)
        #expect(try beacons(bytes).isEmpty)
    }

    @Test func aCutIBeaconIsAnError() throws {
        let manufacturer = try #require(try ManufacturerSpecificData(ADStructure(type: 0xFF, data: [0x4C, 0x00, 0x02, 0x15, 0x01, 0x02], dataOffset: 10)))
        let error = try #require(throws: WireError.self) { try IBeacon(manufacturer) }
        #expect(error.offset == 14)
    }

    @Test func decodesEddystoneUID() throws {
        let frames = try beacons(HCIFixtures.extendedEddystone)
        guard case .eddystoneUID(let beacon)? = frames.first, frames.count == 1 else {
            Issue.record("expected one Eddystone-UID, got \(frames)")
            return
        }
        #expect(beacon.txPower == -21)
        #expect(beacon.namespace == Array(0x10...0x19))
        #expect(beacon.instance == Array(0x20...0x25))
    }

    @Test func decodesAltBeacon() throws {
        let data: [UInt8] = [
            0x1B, 0xFF,                     // AD: length 27, Manufacturer Specific Data
            0x18, 0x01,                     //   company 0x0118 (Radius Networks)
            0xBE, 0xAC,                     //   beacon code
        ] + Array(0x30..<0x44) + [          //   beacon ID, 20 bytes
            0xC3,                           //   reference RSSI −61 dBm
            0x00,                           //   manufacturer reserved
        ]
        let frames = try BeaconFrame.all(in: ADStructure.parse(data))
        guard case .altBeacon(let beacon)? = frames.first, frames.count == 1 else {
            Issue.record("expected one AltBeacon, got \(frames)")
            return
        }
        #expect(beacon.companyID == 0x0118)
        #expect(beacon.beaconID == Array(0x30..<0x44))
        #expect(beacon.referenceRSSI == -61)
    }

    @Test(arguments: [HCIFixtures.iBeaconReport, HCIFixtures.extendedEddystone])
    func everyPrefixOfABeaconEventIsACleanError(_ bytes: [UInt8]) throws {
        let full = try beacons(bytes)
        #expect(full.count == 1)
        let outcome = checkEveryPrefix(bytes, beacons, acceptable: { $0 == full })
        #expect(outcome.errors == bytes.count)
    }
}
