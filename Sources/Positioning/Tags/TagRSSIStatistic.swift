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

    /// The window's figure, from the median and the strongest reading the scanner reported.
    public func value(median: Double, strongest: Double) -> Double {
        switch self {
        case .median: median
        case .strongest: strongest
        case .midpoint: (median + strongest) / 2
        }
    }
}
