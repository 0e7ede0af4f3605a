import Positioning
import ScanContract

/// Whether and how strongly a receiver hears a transmitter, by the log-distance path-loss model.
enum Reception {
    /// One noisy RSSI sample at `receiver`, read `gain` dB above the model (a receiver's own
    /// offset), or nil when it falls below `sensitivity` (not heard). Samples stronger than any
    /// radio reports are capped at the top of ``Measurement/rssiRange``.
    static func sample(
        _ model: PathLossModel, from transmitter: PlanPoint, at receiver: PlanPoint, sensitivity: Int, gain: Int = 0,
        using generator: inout some RandomNumberGenerator
    ) -> Int? {
        let rssi = model.sampleRSSI(atDistance: transmitter.distance(to: receiver), using: &generator) + gain
        guard rssi >= sensitivity else { return nil }
        return min(rssi, Measurement.rssiRange.upperBound)
    }
}
