import ScanContract

/// BLE advertisements of the simulated floor's beacons, paced at their advertising rates: the
/// stream sleeps until the next advertisement is due, as a receiver waits for one.
struct SimulatedBLEScanner: BLEScanner {
    let air: SimulatedAir
    let rates: [Double]

    /// Only advertisements heard above the receiver's sensitivity are delivered, each on its own.
    /// The stream ends at once when no beacon advertises.
    func advertisements() -> AsyncThrowingStream<[RadioReading], any Error> {
        let advertiser = SimulatedAdvertiser(air: air, rates: rates)
        return AsyncThrowingStream { try await advertiser.next().map { [$0] } }
    }
}

/// Wi-Fi scans of the simulated floor: each takes `duration` of the air's clock, then reports
/// every access point heard from where the scanner is at the end.
struct SimulatedWiFiScanner: WiFiScanner {
    let air: SimulatedAir
    let duration: Duration

    /// Throws `CancellationError` when cancelled mid-scan.
    func scanWiFi() async throws -> [RadioReading] {
        try await air.time.clock.sleep(for: duration)
        return await air.wifiScanResults()
    }
}
