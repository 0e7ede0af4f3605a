#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// One thing a radio heard: what, how strongly, when.
struct RadioReading: Sendable, Hashable {
    var observation: Observation
    /// dBm.
    var rssi: Int
    var time: Date

    /// The reading as a measurement of scan cycle `scan`, with a fresh ID.
    func measurement(scan: Int) -> Measurement {
        Measurement(id: UUID(), time: time, rssi: rssi, scan: scan, observation: observation)
    }
}
