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

    /// The reading as a measurement of scan cycle `scan`, with the fresh ID `id`.
    func measurement(scan: Int, id: UUID) -> Measurement {
        Measurement(id: id, time: time, rssi: rssi, scan: scan, observation: observation)
    }
}
