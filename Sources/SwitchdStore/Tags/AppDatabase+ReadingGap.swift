import Foundation
import Positioning

/// Whose sightings a statistic's gap above the median is measured on.
package enum GapSource: Sendable {
    /// One tag's windows, among the sightings stored up to an ID (all when nil).
    case tag(Int64, storedUpTo: Int64?)
    /// Every registered beacon's windows (the fingerprint map's).
    case beacons
}

extension AppDatabase {
    /// Windows a statistic's gap above the median is averaged over, newest first.
    static let gapWindows = 200

    /// How far `statistic` reads above the median on average over the latest
    /// ``gapWindows`` windows of `source` heard at least twice
    /// (``TagRSSIStatistic/meanAboveMedian(_:)``); 0 when there are none. Read through the seam,
    /// on either database.
    package func readingAboveMedian(_ statistic: TagRSSIStatistic, of source: GapSource) async throws -> Double {
        guard statistic != .median else { return 0 }
        return try await readStatements { sql in
            let rows: [StoreRow]
            switch source {
            case .tag(let tagID, let storedUpTo):
                rows = try sql.rows("""
                    SELECT count, median_rssi, max_rssi FROM sighting
                    WHERE tag_id = ? AND id <= ? AND count >= 2
                    ORDER BY window_end_ms DESC LIMIT ?
                    """, [.integer(tagID), .integer(storedUpTo ?? Int64.max), StoreValue(Self.gapWindows)])
            case .beacons:
                rows = try sql.rows("""
                    SELECT count, median_rssi, max_rssi FROM sighting
                    WHERE beacon_id IS NOT NULL AND count >= 2
                    ORDER BY id DESC LIMIT ?
                    """, [StoreValue(Self.gapWindows)])
            }
            return statistic.meanAboveMedian(try rows.map { (count: try $0.int("count"), median: try $0.double("median_rssi"), strongest: try $0.double("max_rssi")) })
        }
    }
}
