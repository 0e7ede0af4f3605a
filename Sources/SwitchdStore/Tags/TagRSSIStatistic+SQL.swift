import Positioning

extension TagRSSIStatistic {
    /// The statistic as an SQL expression (a double on either database) over the `sighting` row
    /// named `alias`.
    func sql(sighting alias: String) -> String {
        switch self {
        case .median: "\(alias).median_rssi"
        case .strongest: "CAST(\(alias).max_rssi AS DOUBLE PRECISION)"
        case .midpoint: "(\(alias).median_rssi + \(alias).max_rssi) / 2.0"
        }
    }
}
