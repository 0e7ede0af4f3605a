import Foundation
import SwitchdStore

/// Where switchd reads the time of day for what it stores with a date that other dates are
/// compared with: when a batch was received and when a walk survey started and arrived
/// (a walk's points are placed by those three). Tests give one they set.
struct WallClock: Sendable {
    var now: @Sendable () -> Date

    /// The system's time, to the millisecond the database keeps.
    static let system = WallClock { .nowInMilliseconds() }
}
