import Foundation

/// A running `scannerd track` on the simulated radio: a fixed scanner standing at one spot of
/// the demo floor, posting per-window sightings of the tags switchd watches.
public struct TrackingScanner: Sendable {
    public let process: ManagedProcess

    /// Starts it with a scanner token for `scannerID` issued on `switchd` (which must be
    /// running); `arguments` add `--sim-tag`, `--sim-seed` and the like.
    public static func start(
        in folder: TemporaryFolder, switchd: SwitchdInstance, scannerID: String, standing x: Double, _ y: Double, arguments: [String] = []
    ) async throws -> TrackingScanner {
        let label = "scannerd-track-\(scannerID)"
        let token = try await switchd.issueScannerToken(scannerID, name: label)
        let process = try ManagedProcess(
            name: label, executable: try Binaries.url("scannerd"),
            arguments: [
                "track", "--switchd", switchd.baseURL.absoluteString, "--scanner-id", scannerID,
                "--token-file", try writeTokenFile(token, in: folder, label: label), "--radio", "simulated", "--sim-position", "\(x),\(y)",
            ] + arguments,
            stderrPath: folder.path("\(label)-\(UUID().uuidString.prefix(6)).stderr")
        )
        return TrackingScanner(process: process)
    }
}
