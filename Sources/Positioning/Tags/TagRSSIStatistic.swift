/// Which of a fixed scanner's per-window figures stands for the window's RSSI when a tag is
/// located, when its fingerprint map is built and when a receive offset is estimated. A sighting
/// carries the median and the strongest reading (``Sighting``), so only those two and their
/// midpoint can be chosen; a mean of the strongest few would need the scanner to send it.
public enum TagRSSIStatistic: String, Hashable, Sendable, Codable, CaseIterable {
    case median
    case strongest
    /// Halfway between the median and the strongest reading.
    case midpoint

    /// What switchd's tag tracker reads: the strongest reading, chosen by the third selection
    /// (`floorscan-evaluate tags-select`, docs/tags.md) over the median and the midpoint on the
    /// fixed-receiver datasets' training parts. Here, not in switchd, so that a replay fits a
    /// tag's model on the figure switchd will read.
    public static let trackerDefault = TagRSSIStatistic.strongest

    /// How far, dB, this statistic reads above the median on average over `windows` (count,
    /// median and strongest reading of each) heard at least twice; 0 when there are none.
    ///
    /// A power at 1 m is declared as a typical reading (iBeacon's measured power, an admin's
    /// `txPower`), in the median's sense; a window's strongest reading lies above its median by
    /// a gap that grows with the readings in the window and the shadowing. Each sighting carries
    /// both figures, so the gap is measured where it is read (a window heard once has none to
    /// show) and what is compared with a declared power is the statistic less this mean: the
    /// strongest reading's lower noise, in the declared power's sense.
    public func meanAboveMedian(_ windows: [(count: Int, median: Double, strongest: Double)]) -> Double {
        let gaps = windows.filter { $0.count >= 2 }.map { value(median: $0.median, strongest: $0.strongest) - $0.median }
        return gaps.isEmpty ? 0 : gaps.reduce(0, +) / Double(gaps.count)
    }

    /// The window's figure, from the median and the strongest reading the scanner reported.
    public func value(median: Double, strongest: Double) -> Double {
        switch self {
        case .median: median
        case .strongest: strongest
        case .midpoint: (median + strongest) / 2
        }
    }
}
