#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RadioWire
import ScanContract

/// One decoded advertisement as `scannerd decode` prints it (one JSON object a line).
struct AdvertisementLine: Encodable, Equatable {
    /// A beacon frame's fields; `type` is `ibeacon`, `eddystone-uid` or `altbeacon`.
    struct Beacon: Encodable, Equatable {
        var type: String
        var uuid: String?
        var major: UInt16?
        var minor: UInt16?
        var measuredPower: Int?
        var namespace: String?
        var instance: String?
        var txPower: Int?
        var company: UInt16?
        var id: String?
        var referenceRSSI: Int?
    }

    var time: Date
    var address: String
    var addressType: UInt8
    /// dBm; absent when the controller did not measure it.
    var rssi: Int?
    /// True for an LE Extended Advertising Report.
    var extended: Bool
    var beacons: [Beacon]?

    init(time: Date, advertisement: LEAdvertisement, frames: [BeaconFrame]) {
        self.time = time
        address = advertisement.address.description
        addressType = advertisement.addressType
        rssi = advertisement.rssi
        extended = advertisement.isExtended
        beacons = frames.isEmpty ? nil : frames.map(Beacon.init)
    }
}

extension AdvertisementLine.Beacon {
    init(_ frame: BeaconFrame) {
        switch frame {
        case .iBeacon(let beacon):
            self.init(type: "ibeacon", uuid: beacon.uuid.uuidString.lowercased(), major: beacon.major,
                      minor: beacon.minor, measuredPower: beacon.measuredPower)
        case .eddystoneUID(let beacon):
            self.init(type: "eddystone-uid", namespace: lowercaseHex(beacon.namespace), instance: lowercaseHex(beacon.instance),
                      txPower: beacon.txPower)
        case .altBeacon(let beacon):
            self.init(type: "altbeacon", company: beacon.companyID, id: lowercaseHex(beacon.beaconID),
                      referenceRSSI: beacon.referenceRSSI)
        }
    }
}

/// Lower-case hex, two digits a byte, as the decoder's lines and ``TagIdentity`` write IDs.
func lowercaseHex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// Every advertisement in a btsnoop capture, in file order, with the events that did not decode.
struct BTSnoopDecoding {
    var lines: [AdvertisementLine] = []
    /// Events (or their advertising data) that broke their format: skipped, each with its error.
    var skipped: [WireError] = []
    var events = 0

    /// Throws `WireError` only when `bytes` are not a btsnoop file; a bad event is skipped and kept in `skipped`.
    init(bytes: [UInt8]) throws(WireError) {
        let snoop = try BTSnoopFile(bytes: bytes)
        for record in snoop.records {
            do {
                guard let event = try record.hciEvent(datalink: snoop.datalink) else { continue }
                events += 1
                let time = Date(timeIntervalSince1970: record.unixTime)
                for advertisement in try event.advertisements() {
                    let structures = try ADStructure.parse(advertisement.data, origin: advertisement.dataOffset)
                    lines.append(AdvertisementLine(time: time, advertisement: advertisement, frames: try BeaconFrame.all(in: structures)))
                }
            } catch {
                skipped.append(error)
            }
        }
    }
}
