#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One position of one track, reduced to the place it was in (a room's or an item's ID; nil
/// when in none).
public struct DwellSample: Hashable, Sendable {
    /// Who moved: positions of one track are one visitor's. Only used to tell tracks apart.
    public var track: String
    public var time: Date
    public var place: Int64?

    public init(track: String, time: Date, place: Int64?) {
        self.track = track
        self.time = time
        self.place = place
    }
}

/// Visits to a place and the seconds spent there, summed over every track.
public struct DwellTally: Hashable, Sendable {
    public var visits: Int
    public var seconds: Double

    public init(visits: Int = 0, seconds: Double = 0) {
        self.visits = visits
        self.seconds = seconds
    }
}

/// Counts stays per place from tracks of positions, keeping nothing of who stayed.
///
/// A stay is a run of one track's consecutive positions in one place, each at most ``maxGap``
/// seconds after the one before; it lasts from its first position to its last. A gap longer
/// than that, another place, or no place ends the stay. Positions out of time order within a
/// track are taken as they come: a negative gap ends the stay too.
public struct DwellCounter: Sendable {
    public var maxGap: Double

    /// The gap after which a track is taken to have left: two minutes of silence.
    public static let defaultMaxGap = 120.0

    public init(maxGap: Double = Self.defaultMaxGap) {
        self.maxGap = maxGap
    }

    /// Tallies per place of `samples`, which come grouped by track and in time order within each.
    public func count(_ samples: some Sequence<DwellSample>) -> [Int64: DwellTally] {
        var tallies: [Int64: DwellTally] = [:]
        var stay: (track: String, place: Int64, start: Date, last: Date)?

        func close() {
            guard let ended = stay else { return }
            tallies[ended.place, default: DwellTally()].visits += 1
            tallies[ended.place, default: DwellTally()].seconds += ended.last.timeIntervalSince(ended.start)
            stay = nil
        }

        for sample in samples {
            if let current = stay {
                let gap = sample.time.timeIntervalSince(current.last)
                if current.track == sample.track, current.place == sample.place, gap >= 0, gap <= maxGap {
                    stay?.last = sample.time
                    continue
                }
                close()
            }
            if let place = sample.place {
                stay = (sample.track, place, sample.time, sample.time)
            }
        }
        close()
        return tallies
    }
}
