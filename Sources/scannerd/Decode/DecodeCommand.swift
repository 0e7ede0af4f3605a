import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RadioWire
import ScanContract

/// `scannerd decode FILE`: prints one JSON line per advertisement in a btsnoop capture (time,
/// address, RSSI and beacon fields), then a summary on stderr. `scannerd decode --nl80211 FILE`
/// prints the BSS of one nl80211 scan-result attribute dump.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode the LE advertisements (and iBeacon, Eddystone-UID, AltBeacon frames) in a btsnoop capture."
    )

    @Argument(help: "A btsnoop file (Android btsnoop_hci.log, btmon -w), or with --nl80211 an attribute dump.")
    var file: String

    @Flag(help: "Read FILE as the attribute stream of one NL80211_CMD_NEW_SCAN_RESULTS message.")
    var nl80211 = false

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw DecodeError(description: "cannot read \(file): no such file or not readable")
        }
        let bytes = [UInt8](data)
        if nl80211 {
            do {
                let line = try BSSLine.decode(attributeStream: bytes)
                print(String(decoding: try JSONCoding.encoder().encode(line), as: UTF8.self))
                return
            } catch {
                throw DecodeError(description: "\(file) is not a readable nl80211 scan result: \(error)")
            }
        }
        let decoding: BTSnoopDecoding
        do {
            decoding = try BTSnoopDecoding(bytes: bytes)
        } catch {
            throw DecodeError(description: "\(file) is not a readable btsnoop capture: \(error)")
        }
        let encoder = JSONCoding.encoder()
        for line in decoding.lines {
            print(String(decoding: try encoder.encode(line), as: UTF8.self))
        }
        let beacons = decoding.lines.reduce(0) { $0 + ($1.beacons?.count ?? 0) }
        var summary = "\(decoding.lines.count) advertisements (\(beacons) beacon frames) in \(decoding.events) HCI events"
        if let first = decoding.skipped.first {
            summary += "; \(decoding.skipped.count) events skipped, first: \(first)"
        }
        try FileDescriptor.standardError.write(Data((summary + "\n").utf8))
    }
}

/// A file `scannerd decode` cannot read as a capture; the message names the file and the byte.
struct DecodeError: Error, CustomStringConvertible {
    var description: String
}
