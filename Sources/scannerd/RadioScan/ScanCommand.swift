import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// `scannerd scan ble|wifi`: one-shot diagnostics of the real radios, printing what they hear as
/// JSON lines on stdout (the shapes of `scannerd decode`) and logs on stderr.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan with this machine's Bluetooth controller or Wi-Fi interface and print what is heard as JSON lines.",
        subcommands: [ScanBLECommand.self, ScanWiFiCommand.self]
    )
}

/// Writes one JSON object and a newline to stdout at once, so a reader sees whole lines as they come.
func printJSONLine(_ value: some Encodable, encoder: JSONEncoder) throws {
    var data = try encoder.encode(value)
    data.append(UInt8(ascii: "\n"))
    try FileDescriptor.standardOutput.write(data)
}
