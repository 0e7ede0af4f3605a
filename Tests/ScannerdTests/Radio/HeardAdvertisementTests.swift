import Foundation
import ScanContract
import Testing
@testable import scannerd

/// RadioWire decodes addresses and iBeacon IDs as wire values; scannerd maps them into the
/// contract's `MACAddress` and `BeaconID` when it makes a reading.
@Suite("Heard advertisements as readings")
struct HeardAdvertisementTests {
    @Test func anIBeaconReportBecomesAReadingWithTheContractsAddressAndBeaconID() throws {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let packet = HeardAdvertisement.decode(iBeaconReport(minor: 9, rssi: -61), at: time)
        let reading = try #require(packet.heard.first?.readings.first)
        let expected = BLEObservation(
            address: try MACAddress("01:02:03:04:05:06"),
            beacon: BeaconID(uuid: try #require(UUID(uuidString: "00010203-0405-0607-0809-0A0B0C0D0E0F")), major: 1, minor: 9),
            txPower: -59
        )
        #expect(reading.observation == .ble(expected))
        #expect(reading.rssi == -61 && reading.time == time)
    }
}
