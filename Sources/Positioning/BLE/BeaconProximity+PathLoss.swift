import ScanContract

extension BeaconProximity {
    /// Classes by the distance the log-distance model gives from the RSSI and the beacon's
    /// measured power (RSSI at 1 m): under `immediateWithin` metres is immediate, under
    /// `nearWithin` is near, beyond is far. A non-finite RSSI, one ≥ 0 dBm (radios report 0 or
    /// +127 for "not measured") or a measured power ≥ 0 gives unknown.
    public init(rssi: Double, measuredPower: Double, exponent: Double = 2.0, immediateWithin: Double = 0.5, nearWithin: Double = 3.0) {
        guard rssi.isFinite, rssi < 0, measuredPower.isFinite, measuredPower < 0, exponent > 0 else {
            self = .unknown
            return
        }
        let distance = PathLossModel(powerAt1m: measuredPower, exponent: exponent, shadowingSigma: 0).distance(forRSSI: rssi)
        self = distance < immediateWithin ? .immediate : distance < nearWithin ? .near : .far
    }
}
