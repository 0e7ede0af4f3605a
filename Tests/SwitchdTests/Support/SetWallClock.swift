import Foundation
import Synchronization
@testable import switchd

/// A time of day that stands still until the test sets it: what switchd stamps received batches
/// and walk surveys with.
final class SetWallClock: Sendable {
    private let time: Mutex<Date>

    init(_ start: Date) {
        time = Mutex(start)
    }

    var now: Date { time.withLock { $0 } }

    func set(_ date: Date) {
        time.withLock { $0 = date }
    }

    var wallClock: WallClock { WallClock { [self] in now } }
}
