import Foundation
import Positioning
import ScanContract

extension SightingWindow {
    /// Stands in for the tag when a window is turned into what a scanner would send.
    private static let anyIdentity = TagIdentity.iBeacon(BeaconID(uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), major: 0, minor: 0))

    /// The window's RSSI as switchd reads `statistic` from the sighting a scanner sends (its
    /// median, and its strongest reading as the whole dBm the wire carries); nil when nothing was heard.
    func rssi(_ statistic: TagRSSIStatistic) -> Double? {
        let epoch = Date(timeIntervalSince1970: 0)
        guard let sent = sighting(of: Self.anyIdentity, from: epoch, to: epoch) else { return nil }
        return statistic.value(median: sent.medianRSSI, strongest: Double(sent.maxRSSI))
    }
}
