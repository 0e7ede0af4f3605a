import Foundation

/// Turns instants of the continuous clock into wall-clock dates from one pairing of the two
/// clocks, so readings scheduled 10 ms apart are stamped exactly 10 ms apart: reading both clocks
/// afresh for every stamp would add whatever time the thread lost between the two reads.
///
/// The pairing is renewed when the wall clock has stepped (by more than ``stepThreshold``) since
/// it was made, as it does when a Raspberry Pi without a real-time clock gets the time from NTP.
struct WallClockAnchor: Sendable {
    static let stepThreshold: TimeInterval = 1

    private var instant: ContinuousClock.Instant
    private var date: Date

    init(instant: ContinuousClock.Instant = .now, date: Date = .now) {
        self.instant = instant
        self.date = date
    }

    /// The wall-clock date of `instant`.
    func date(at instant: ContinuousClock.Instant) -> Date {
        date.addingTimeInterval((instant - self.instant).seconds)
    }

    /// Compares the anchor with the wall clock read now, at `instant`, and re-pairs the clocks
    /// when they disagree by more than the threshold.
    mutating func follow(wallClock now: Date, at instant: ContinuousClock.Instant) {
        if abs(now.timeIntervalSince(date(at: instant))) > Self.stepThreshold {
            self.instant = instant
            date = now
        }
    }
}
