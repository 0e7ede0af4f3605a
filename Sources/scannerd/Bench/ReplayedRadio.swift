import ScanContract

/// The radio source of `scannerd bench`: a real ``HCIBLEScanner`` on a ``ReplayedController``,
/// and no Wi-Fi, so scan cycles are counted by the session's clock as on a scanner without one.
struct ReplayedRadio: RadioSource {
    let name = "replayed captures"
    let ble: (any BLEScanner)?
    let wifi: (any WiFiScanner)? = nil

    func prepare(for scanSwitch: ScanSwitch) async {}
}

/// switchd is not part of the benchmark: the radio-map refresher never runs there, so nothing
/// asks this client; if something did, it would fail as an unreachable switchd does.
struct NoSwitchd: HTTPClient {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw BenchError(description: "the benchmark runs without switchd; \(request.url.path) was not sent")
    }
}
