#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns readings of the receiver's clock (time since its start, ``ElapsedTime``) into
/// wall-clock dates from one pairing of the two clocks, so readings scheduled 10 ms apart are
/// stamped exactly 10 ms apart: reading both clocks afresh for every stamp would add whatever
/// time the thread lost between the two reads.
///
/// The pairing is renewed when the wall clock has stepped (by more than ``stepThreshold``) since
/// it was made, as it does when a Raspberry Pi without a real-time clock gets the time from NTP.
struct WallClockAnchor: Sendable {
    static let stepThreshold: TimeInterval = 1

    private var elapsed: Duration
    private var date: Date

    init(elapsed: Duration, date: Date) {
        self.elapsed = elapsed
        self.date = date
    }

    /// The wall-clock date of the moment `elapsed` after the receiver's start.
    func date(at elapsed: Duration) -> Date {
        date.addingTimeInterval((elapsed - self.elapsed).seconds)
    }

    /// The reading of the receiver's clock at wall-clock `date`.
    func elapsed(at date: Date) -> Duration {
        elapsed + .seconds(date.timeIntervalSince(self.date))
    }

    /// Compares the anchor with the wall clock read now, at `elapsed`, and re-pairs the clocks
    /// when they disagree by more than the threshold.
    mutating func follow(wallClock now: Date, at elapsed: Duration) {
        if abs(now.timeIntervalSince(date(at: elapsed))) > Self.stepThreshold {
            self.elapsed = elapsed
            date = now
        }
    }
}
