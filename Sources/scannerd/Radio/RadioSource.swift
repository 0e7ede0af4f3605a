import ScanContract

/// A Bluetooth LE receiver: advertisements arrive as they are heard, for as long as the stream
/// is iterated, in groups heard together (never empty), so a consumer takes each group with one
/// wake-up. The stream throws when the radio fails; cancelling the iterating task stops it.
protocol BLEScanner: Sendable {
    func advertisements() -> AsyncThrowingStream<[RadioReading], any Error>

    /// The same advertisements taken by both roles of a scanner (``BLEHeardGroup``): a group
    /// for each group heard that holds something for either. Ends and throws as
    /// ``advertisements()`` does.
    func heardGroups() -> AsyncThrowingStream<BLEHeardGroup, any Error>

    /// What a scan session takes: the iBeacon readings, and of the other advertisements only
    /// those carrying plain Eddystone-TLM telemetry (as hearings). Ends and throws as
    /// ``advertisements()`` does.
    func sessionGroups() -> AsyncThrowingStream<BLEHeardGroup, any Error>
}

/// A Wi-Fi interface: a scan is triggered, takes its time (channel by channel), and completes
/// with every access point heard. Throws when the scan fails or is aborted.
protocol WiFiScanner: Sendable {
    func scanWiFi() async throws -> [RadioReading]
}

/// Where readings come from: a machine's radios, or a simulation of them. Either radio may be
/// absent.
protocol RadioSource: Sendable {
    /// For logs: which source this is.
    var name: String { get }
    var ble: (any BLEScanner)? { get }
    var wifi: (any WiFiScanner)? { get }

    /// Called before each scan session with the switch it is for. Real radios have nothing to
    /// do; a simulated scanner moves to the location being surveyed. Does not throw: a source
    /// that cannot prepare logs why and scans as it is.
    func prepare(for scanSwitch: ScanSwitch) async
}
