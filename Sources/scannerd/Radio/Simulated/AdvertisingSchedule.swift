/// When each simulated beacon advertises: every beacon at its own steady rate, the beacons'
/// phases spread over one interval as unsynchronised transmitters' would be, unless a first
/// time is given (a moving tag's, on the wall clock's grid). Times are the receiver's clock read
/// as time since its start (``ElapsedTime``).
struct AdvertisingSchedule: Sendable {
    private var due: [Duration?]
    private let intervals: [Duration?]

    /// A receiver that falls further behind than this (the process was stopped, say) skips the
    /// advertisements it missed, whole intervals of them, instead of delivering them in a burst.
    static let maximumLag: Duration = .seconds(1)

    /// `rates` in advertisements per second, one per beacon; a beacon with rate 0 never sends.
    /// `first` gives a beacon's first advertisement (nil, or no entry: its phase in the spread).
    init(rates: [Double], start: Duration, first: [Duration?] = []) {
        let intervals = rates.map { $0 > 0 ? Duration.seconds(1 / $0) : nil }
        self.intervals = intervals
        due = intervals.enumerated().map { index, interval in
            guard let interval else { return nil }
            return (index < first.count ? first[index] : nil) ?? start + interval * (Double(index) / Double(rates.count))
        }
    }

    /// When the next advertisement is due; nil when no beacon advertises.
    var earliest: Duration? {
        due.compactMap { $0 }.min()
    }

    /// Every advertisement due by `now`, in time order (ties by beacon index), as the beacon's
    /// index and when it was sent; each beacon's next one is scheduled.
    mutating func takeDue(asOf now: Duration) -> [(beacon: Int, sent: Duration)] {
        var sent: [(beacon: Int, sent: Duration)] = []
        for index in due.indices {
            guard let interval = intervals[index], var next = due[index] else { continue }
            if now - next > Self.maximumLag {
                next += interval * ((now - next - Self.maximumLag) / interval).rounded(.up)
            }
            while next <= now {
                sent.append((index, next))
                next += interval
            }
            due[index] = next
        }
        return sent.sorted { ($0.sent, $0.beacon) < ($1.sent, $1.beacon) }
    }
}
