#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// The last switch scannerd knew, kept on disk so that a restart while switchd is unreachable
/// carries on as before.
struct SwitchStore: Sendable {
    let path: String

    /// The saved switch; nil when none was saved. Throws when the file cannot be read or is not
    /// a switch.
    func load() throws -> ScanSwitch? {
        guard FileSystem.exists(path) else { return nil }
        return try JSONCoding.decoder().decode(ScanSwitch.self, from: FileSystem.readFile(path))
    }

    /// Replaces the saved switch durably (see ``FileSystem/writeDurably(_:to:mode:)``), readable
    /// by its owner only: a listening scanner's switch carries the watched tags' keys
    /// (``ScanSwitch/watchedKeys``).
    func save(_ scanSwitch: ScanSwitch) throws {
        try FileSystem.writeDurably(try JSONCoding.encoder().encode(scanSwitch), to: path, mode: FileDescriptor.privateFileMode)
    }
}
