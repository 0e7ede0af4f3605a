import CBluetooth
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RadioWire

/// The HCI events that carry iBeacon advertisements, as the H4 packets a raw HCI socket reads:
/// what `scannerd bench` replays.
struct CapturedBeaconEvents {
    /// One H4 event packet each (type byte first), in the order given.
    let packets: [[UInt8]]
    /// The iBeacon readings each packet gives, in the same order.
    let readings: [Int]

    /// Keeps the packets of `candidates` that give iBeacon readings. Throws when none does:
    /// there is nothing to measure then.
    init(packets candidates: [[UInt8]], from source: String) throws {
        let counted = candidates.map { packet in
            (packet, HeardAdvertisement.decode(packet, at: Date()).heard.reduce(0) { $0 + $1.readings.count })
        }.filter { $0.1 > 0 }
        guard !counted.isEmpty else {
            throw BenchError(description: "no HCI event in \(source) carries an iBeacon advertisement")
        }
        packets = counted.map(\.0)
        readings = counted.map(\.1)
    }

    /// The HCI events of every btsnoop file (`*.log`) in `folder`, in name order. Throws when the
    /// folder or a file cannot be read, when a file is not a btsnoop capture, and when no event
    /// carries an iBeacon.
    init(folder: String) throws {
        var candidates: [[UInt8]] = []
        for name in try FileSystem.contents(ofDirectory: folder).filter({ $0.hasSuffix(".log") }).sorted() {
            let path = folder + "/" + name
            do {
                let capture = try BTSnoopFile(bytes: [UInt8](FileSystem.readFile(path)))
                for record in capture.records {
                    guard let event = try record.hciEvent(datalink: capture.datalink) else { continue }
                    candidates.append([UInt8(HCI_EVENT_PKT), event.eventCode, UInt8(event.parameters.count)] + event.parameters)
                }
            } catch {
                throw BenchError(description: "\(path) is not a readable btsnoop capture: \(error)")
            }
        }
        try self.init(packets: candidates, from: "the btsnoop captures of \(folder)")
    }
}

/// Why `scannerd bench` could not run; the message says what to fix.
struct BenchError: Error, CustomStringConvertible {
    var description: String
}
