import Foundation
import ScanContract
import Testing
@testable import scannerd

/// Track mode: advertisements (decoded from the specifications' bytes) become tag identities, and
/// only watched tags' windows are closed into sightings.
@Suite("Track mode windows")
struct TrackWindowsTests {
    static let namespace = "00112233445566778899"
    static let instance = "aabbccddeeff"

    /// An LE Advertising Report (legacy) from 06:05:04:03:02:01 carrying `data`.
    static func report(_ data: [UInt8], rssi: Int8) -> [UInt8] {
        let report: [UInt8] = [0x03, 0x00, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, UInt8(data.count)] + data + [UInt8(bitPattern: rssi)]
        let parameters: [UInt8] = [0x02, 0x01] + report
        return [0x04, 0x3E, UInt8(parameters.count)] + parameters
    }

    /// Eddystone-UID as its specification lays it out: the 0xFEAA service UUID list, then service
    /// data: frame type 0x00, ranging data, 10-byte namespace, 6-byte instance, 2 reserved bytes.
    static let eddystone: [UInt8] = [0x03, 0x03, 0xAA, 0xFE, 0x17, 0x16, 0xAA, 0xFE, 0x00, 0xEE]
        + [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99] + [0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF] + [0x00, 0x00]

    /// AltBeacon v1.0: manufacturer data, company 0x0118, beacon code 0xBEAC, 20-byte ID,
    /// reference RSSI, reserved byte.
    static let altBeacon: [UInt8] = [0x1B, 0xFF, 0x18, 0x01, 0xBE, 0xAC] + Array(0x30..<0x44) + [0xC3, 0x00]

    @Test func advertisementsNameTagsByFrameAndAddress() throws {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let eddystone = try #require(HeardAdvertisement.decode(Self.report(Self.eddystone, rssi: -70), at: time).heard.first)
        let address = TagIdentity.address(try MACAddress("01:02:03:04:05:06"))
        #expect(eddystone.tagIdentities == [.eddystoneUID(namespace: Self.namespace, instance: Self.instance), address])
        let alt = try #require(HeardAdvertisement.decode(Self.report(Self.altBeacon, rssi: -70), at: time).heard.first)
        #expect(alt.tagIdentities == [.altBeacon((0x30..<0x44).map { String(format: "%02x", $0) }.joined()), address])
        let iBeacon = try #require(HeardAdvertisement.decode(iBeaconReport(minor: 9), at: time).heard.first)
        let uuid = try #require(UUID(uuidString: "00010203-0405-0607-0809-0A0B0C0D0E0F"))
        #expect(iBeacon.tagIdentities == [.iBeacon(BeaconID(uuid: uuid, major: 1, minor: 9)), address])
    }

    @Test func onlyWatchedTagsAreWindowedAndAWindowClosesWhenTheNextBegins() {
        let bike = TagIdentity.eddystoneUID(namespace: Self.namespace, instance: Self.instance)
        let stranger = TagIdentity.address(MACAddress(rawValue: 0x02_00_00_00_00_09))
        var windows = TrackWindows(length: 1, watched: [bike])
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(windows.add([bike], rssi: -70, at: start.addingTimeInterval(0.1)).isEmpty)
        #expect(windows.add([stranger], rssi: -40, at: start.addingTimeInterval(0.2)).isEmpty)
        #expect(windows.add([bike], rssi: -60, at: start.addingTimeInterval(0.5)).isEmpty)
        #expect(windows.add([bike], rssi: -65, at: start.addingTimeInterval(0.9)).isEmpty)
        let closed = windows.add([bike], rssi: -50, at: start.addingTimeInterval(1.2))
        #expect(closed == [Sighting(identity: bike, windowStart: start, windowEnd: start.addingTimeInterval(1), count: 3, medianRSSI: -65, maxRSSI: -60)])
        #expect(windows.close(before: start.addingTimeInterval(1.9)).isEmpty, "the second window is still open")
        let last = windows.close(before: start.addingTimeInterval(2))
        #expect(last.map(\.count) == [1] && last.first?.windowStart == start.addingTimeInterval(1))
        #expect(windows.close(before: start.addingTimeInterval(5)).isEmpty)
    }

    @Test func unwatchingATagDropsWhatWasHeardOfIt() {
        let bike = TagIdentity.address(MACAddress(rawValue: 1)), keys = TagIdentity.address(MACAddress(rawValue: 2))
        var windows = TrackWindows(length: 2, watched: [bike, keys])
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        _ = windows.add([bike], rssi: -70, at: start)
        _ = windows.add([keys], rssi: -71, at: start)
        windows.watch([keys])
        #expect(windows.close(before: start.addingTimeInterval(2)).map(\.identity) == [keys])
    }
}
