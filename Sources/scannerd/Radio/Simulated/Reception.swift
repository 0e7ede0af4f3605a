import Positioning
import ScanContract

/// Whether and how strongly a receiver hears a transmitter, by the log-distance path-loss model.
enum Reception {
    /// One noisy RSSI sample at `receiver`, or nil when it falls below `sensitivity` (not heard).
    /// Samples stronger than any radio reports are capped at the top of ``Measurement/rssiRange``.
    static func sample(
        _ model: PathLossModel, from transmitter: PlanPoint, at receiver: PlanPoint, sensitivity: Int,
        using generator: inout some RandomNumberGenerator
    ) -> Int? {
        let rssi = model.sampleRSSI(atDistance: transmitter.distance(to: receiver), using: &generator)
        guard rssi >= sensitivity else { return nil }
        return min(rssi, Measurement.rssiRange.upperBound)
    }
}
