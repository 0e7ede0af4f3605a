import Foundation
import Testing
@testable import scannerd

@Suite("Wall-clock anchor")
struct WallClockAnchorTests {
    let start = Duration.seconds(40)
    let startDate = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func instantsApartAreStampedExactlyAsFarApart() {
        let anchor = WallClockAnchor(elapsed: start, date: startDate)
        let stamps = (0..<30).map { anchor.date(at: start + .milliseconds(10 * $0)) }
        #expect(stamps[0] == startDate)
        #expect(abs(stamps[29].timeIntervalSince(stamps[0]) - 0.29) < 1e-6, "a Date holds about a tenth of a microsecond")
    }

    @Test func aLateReadOfTheWallClockKeepsTheSchedule() {
        var anchor = WallClockAnchor(elapsed: start, date: startDate)
        // The thread lost 40 ms between reading the two clocks: not a step of the wall clock.
        anchor.follow(wallClock: startDate.addingTimeInterval(5.04), at: start + .seconds(5))
        #expect(abs(anchor.date(at: start + .seconds(6)).timeIntervalSince(startDate) - 6) < 1e-6)
    }

    @Test func aSteppedWallClockIsFollowed() {
        var anchor = WallClockAnchor(elapsed: start, date: Date(timeIntervalSince1970: 0))
        // A Pi without a real-time clock boots in 1970 until NTP sets the time.
        anchor.follow(wallClock: startDate, at: start + .seconds(30))
        #expect(abs(anchor.date(at: start + .seconds(31)).timeIntervalSince(startDate) - 1) < 1e-6)
    }
}
